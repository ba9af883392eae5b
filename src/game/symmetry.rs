//! The symmetry groups of the 4x4x4 board, as cell permutations (the slow, obviously right form)
//! and as bit tricks (the fast form the search uses), plus the canonical form of a position.
//!
//! Cell `x + 4*y + 16*z`. Sogo keeps the bottom layer a bottom layer, so its group is the 8
//! symmetries of the square acting on `(x, y)`. Qubic has the 48 symmetries of the cube times the
//! four "inside-out" coordinate maps applied to all three axes at once (identity, swap 1<->2, swap
//! 0<->1 and 2<->3, and their product): 192 elements, all keeping the 76 lines (tested).
//!
//! The fast canonical forms walk the group by cheap steps (delta swaps on the whole 64-bit board)
//! instead of moving 64 cells one by one; the tests check that they visit exactly the images of
//! the permutation tables.

/// A symmetry as a cell permutation: cell `i` goes to cell `perm[i]`.
pub type Perm = [u8; 64];

fn coords(i: usize) -> [usize; 3] {
    [i % 4, (i / 4) % 4, i / 16]
}

fn cell(c: [usize; 3]) -> usize {
    c[0] + 4 * c[1] + 16 * c[2]
}

/// Image of a board (bit set) under a permutation.
pub fn apply(perm: &Perm, board: u64) -> u64 {
    let mut out = 0;
    let mut b = board;
    while b != 0 {
        let i = b.trailing_zeros() as usize;
        b &= b - 1;
        out |= 1u64 << perm[i];
    }
    out
}

/// Builds the permutation `(x, y, z) -> (p[0][c[axes[0]]], p[1][c[axes[1]]], p[2][c[axes[2]]])`.
fn coordinate_map(axes: [usize; 3], values: [[usize; 4]; 3]) -> Perm {
    let mut perm = [0u8; 64];
    for (i, slot) in perm.iter_mut().enumerate() {
        let c = coords(i);
        let image = [
            values[0][c[axes[0]]],
            values[1][c[axes[1]]],
            values[2][c[axes[2]]],
        ];
        *slot = cell(image) as u8;
    }
    perm
}

const ID4: [usize; 4] = [0, 1, 2, 3];
const REV4: [usize; 4] = [3, 2, 1, 0];

/// Sogo's group: the 8 symmetries of the square on `(x, y)`, levels kept.
pub fn sogo_group() -> Vec<Perm> {
    let mut out = Vec::new();
    for axes in [[0, 1, 2], [1, 0, 2]] {
        for fx in [ID4, REV4] {
            for fy in [ID4, REV4] {
                out.push(coordinate_map(axes, [fx, fy, ID4]));
            }
        }
    }
    out
}

/// Qubic's group of order 192: axis permutations (6) x per-axis reversal (8) x the uniform
/// inside-out maps (4).
pub fn qubic_group() -> Vec<Perm> {
    let inside_out: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 2, 1, 3], [1, 0, 3, 2], [2, 0, 3, 1]];
    let axis_perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::new();
    for axes in axis_perms {
        for io in inside_out {
            for flips in 0..8 {
                let mut values = [io; 3];
                for (a, v) in values.iter_mut().enumerate() {
                    if flips >> a & 1 == 1 {
                        *v = [REV4[io[0]], REV4[io[1]], REV4[io[2]], REV4[io[3]]];
                    }
                }
                out.push(coordinate_map(axes, values));
            }
        }
    }
    out
}

/// A mask of the cells whose coordinates satisfy a predicate, computed at compile time.
macro_rules! cell_mask {
    (|$x:ident, $y:ident, $z:ident| $pred:expr) => {{
        let mut m = 0u64;
        let mut i = 0;
        while i < 64 {
            let $x = i % 4;
            let $y = (i / 4) % 4;
            let $z = i / 16;
            if $pred {
                m |= 1u64 << i;
            }
            i += 1;
        }
        m
    }};
}

/// Swaps the bits of `mask` with the bits `d` places above them.
#[inline(always)]
fn delta_swap(b: u64, mask: u64, d: u32) -> u64 {
    let t = ((b >> d) ^ b) & mask;
    b ^ t ^ (t << d)
}

/// Exchanges the cells of `mask` with the cells `d` places above them, when those two sets
/// cover the whole board (so the plain shifts need one mask fewer than [`delta_swap`]).
#[inline(always)]
fn exchange(b: u64, mask: u64, d: u32) -> u64 {
    ((b >> d) & mask) | ((b & mask) << d)
}

/// Masks of a reversal `v -> 3 - v` of the axis with stride `d` (1, 4 or 16): the cells with an
/// even coordinate (exchanged with their neighbours), and those with coordinate 0 or 1
/// (exchanged with the pair two steps up).
const fn reversal(d: u32) -> (u64, u64, u32) {
    let a = d.trailing_zeros() as usize / 2;
    let even = cell_mask!(|x, y, z| [x, y, z][a] % 2 == 0);
    let low = cell_mask!(|x, y, z| [x, y, z][a] < 2);
    (even, low, d)
}

/// Masks of the transpose exchanging axes `a` and `b` (`a < b`; 0 = x, 1 = y, 2 = z), done as
/// a 2x2 block matrix: swap the blocks off the diagonal (the cells with `c[a] >= 2` and
/// `c[b] < 2` with their partners), then the cells inside every block (odd `c[a]`, even
/// `c[b]`); `d` is the difference of the two strides.
const fn transpose(a: usize, b: usize) -> (u64, u64, u32) {
    let blocks = cell_mask!(|x, y, z| [x, y, z][a] >= 2 && [x, y, z][b] < 2);
    let cells = cell_mask!(|x, y, z| [x, y, z][a] % 2 == 1 && [x, y, z][b] % 2 == 0);
    (blocks, cells, (1 << (2 * b)) - (1 << (2 * a)))
}

const FLIP_X: (u64, u64, u32) = reversal(1);
const FLIP_Y: (u64, u64, u32) = reversal(4);
const SWAP_XY: (u64, u64, u32) = transpose(0, 1);
const SWAP_YZ: (u64, u64, u32) = transpose(1, 2);
const SWAP_XZ: (u64, u64, u32) = transpose(0, 2);
// the inside-out maps act on every axis at once
const X_EVEN: u64 = FLIP_X.0;
const Y_EVEN: u64 = FLIP_Y.0;
const Z_EVEN: u64 = reversal(16).0;
const X_ONE: u64 = cell_mask!(|x, _y, _z| x == 1);
const Y_ONE: u64 = cell_mask!(|_x, y, _z| y == 1);
const Z_ONE: u64 = cell_mask!(|_x, _y, z| z == 1);

/// Applies the masks of [`reversal`].
#[inline(always)]
fn reverse(b: u64, (even, low, d): (u64, u64, u32)) -> u64 {
    exchange(exchange(b, even, d), low, 2 * d)
}

/// Applies the masks of [`transpose`].
#[inline(always)]
fn exchange_axes(b: u64, (blocks, cells, d): (u64, u64, u32)) -> u64 {
    delta_swap(delta_swap(b, blocks, 2 * d), cells, d)
}

/// x -> 3 - x.
#[inline(always)]
pub fn flip_x(b: u64) -> u64 {
    reverse(b, FLIP_X)
}

/// y -> 3 - y.
#[inline(always)]
pub fn flip_y(b: u64) -> u64 {
    reverse(b, FLIP_Y)
}

/// z -> 3 - z (levels upside down; not a Sogo symmetry). Exchanging the level pairs is a
/// rotation by 32, cheaper than the second exchange of `reverse`.
#[inline(always)]
pub fn flip_z(b: u64) -> u64 {
    exchange(b.rotate_left(32), Z_EVEN, 16)
}

/// x <-> y.
#[inline(always)]
pub fn swap_xy(b: u64) -> u64 {
    exchange_axes(b, SWAP_XY)
}

/// y <-> z.
#[inline(always)]
pub fn swap_yz(b: u64) -> u64 {
    exchange_axes(b, SWAP_YZ)
}

/// x <-> z.
#[inline(always)]
pub fn swap_xz(b: u64) -> u64 {
    exchange_axes(b, SWAP_XZ)
}

/// The inside-out map swapping coordinate values 1 and 2 on all three axes.
#[inline(always)]
pub fn inside_out_12(b: u64) -> u64 {
    let b = delta_swap(b, X_ONE, 1);
    let b = delta_swap(b, Y_ONE, 4);
    delta_swap(b, Z_ONE, 16)
}

/// The inside-out map swapping coordinate values 0<->1 and 2<->3 on all three axes.
#[inline(always)]
pub fn inside_out_01(b: u64) -> u64 {
    exchange(exchange(exchange(b, X_EVEN, 1), Y_EVEN, 4), Z_EVEN, 16)
}

/// Keeps the smaller of two (white, black) pairs, compared as one 128-bit number.
#[inline(always)]
fn pack(w: u64, b: u64) -> u128 {
    ((w as u128) << 64) | b as u128
}

// The group is walked as a product of short walks, each a fixed sequence of cheap steps in which
// image `k` is reached from image `k - 1`. The step functions below are the only place that says
// which step comes when; the fast minima and the lookup of one element's image both use them
// (the tests check that the walks visit exactly the images of the permutation tables).

/// The square walk (Sogo's group) as steps: image `k + 1` is `SQUARE_WALK[k]` of image `k`,
/// from the identity: id, fx, fx fy, fy, then transpose and the same four.
const SQUARE_WALK: [fn(u64) -> u64; 7] = [flip_x, flip_y, flip_x, swap_xy, flip_x, flip_y, flip_x];

/// The 8 images of `b` under Sogo's group, in the order of [`SQUARE_WALK`].
#[inline(always)]
fn square_images(b: u64) -> [u64; 8] {
    let mut out = [b; 8];
    for (k, step) in SQUARE_WALK.iter().enumerate() {
        out[k + 1] = step(out[k]);
    }
    out
}

/// The inside-out walk: id, 1<->2, then 0<->1 and 2<->3, then 1<->2 again.
#[inline(always)]
fn inside_out_step(b: u64, k: usize) -> u64 {
    if k == 2 {
        inside_out_01(b)
    } else {
        inside_out_12(b)
    }
}

/// Which axis becomes vertical: z (identity), y or x.
#[inline(always)]
fn vertical_image(b: u64, vertical: usize) -> u64 {
    match vertical {
        0 => b,
        1 => swap_yz(b),
        _ => swap_xz(b),
    }
}

/// The minimum of the 8 square-symmetry images of `(w, b)` as `white << 64 | black`.
#[inline]
pub fn min8(w: u64, b: u64) -> u128 {
    // both boards along the walk together (computing each board's 8 images first runs out of
    // registers)
    let (mut w, mut b) = (w, b);
    let mut best = pack(w, b);
    for step in SQUARE_WALK {
        w = step(w);
        b = step(b);
        best = best.min(pack(w, b));
    }
    best
}

/// Coset `(vertical * 4 + inside_out) * 2 + z_flip` of the Qubic walk: its representative's
/// image of `b`, the walks taken from the start.
#[inline(always)]
fn coset_image(b: u64, coset: usize) -> u64 {
    let mut b = vertical_image(b, coset / 8);
    for k in 1..=coset / 2 % 4 {
        b = inside_out_step(b, k);
    }
    if coset % 2 == 1 {
        flip_z(b)
    } else {
        b
    }
}

/// The minimum of the 192 Qubic images of `(w, b)`: for each of the 3 choices of the axis that
/// becomes vertical, the 4 inside-out maps and the 2 level orders (24 cosets), the 8 square
/// images.
///
/// Two passes: first only White's 192 images (half the work), remembering which group elements
/// reach the smallest; then Black's image under just those elements (usually one) breaks ties.
#[inline]
pub fn min192(w: u64, b: u64) -> u128 {
    let mut best_w = u64::MAX;
    // candidates as coset << 3 | square index (24 cosets of 8: one byte)
    let mut cand = [0u8; 192];
    let mut n = 0;
    for vertical in 0..3 {
        let mut w1 = vertical_image(w, vertical);
        for io in 0..4 {
            if io > 0 {
                w1 = inside_out_step(w1, io);
            }
            for fz in 0..2 {
                let x = if fz == 1 { flip_z(w1) } else { w1 };
                let coset = ((vertical * 4 + io) * 2 + fz) as u8;
                for (k, y) in square_images(x).into_iter().enumerate() {
                    if y <= best_w {
                        if y < best_w {
                            best_w = y;
                            n = 0;
                        }
                        cand[n] = coset << 3 | k as u8;
                        n += 1;
                    }
                }
            }
        }
    }
    let mut best_b = u64::MAX;
    for &c in &cand[..n] {
        let mut y = coset_image(b, (c >> 3) as usize);
        // the first `c & 7` steps of the square walk (a loop with a fixed count and an exit,
        // so that the compiler unrolls it and calls no function pointer)
        for (k, step) in SQUARE_WALK.iter().enumerate() {
            if k == (c & 7) as usize {
                break;
            }
            y = step(y);
        }
        best_b = best_b.min(y);
    }
    pack(best_w, best_b)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop, clippy::type_complexity)]
mod tests {
    use super::*;
    use crate::game::cube::LINES;
    use std::collections::HashSet;

    use crate::util::rng::xorshift as rng;

    fn line_set() -> HashSet<u64> {
        LINES.iter().copied().collect()
    }

    #[test]
    fn groups_have_the_right_size_and_are_groups() {
        for (group, n) in [(sogo_group(), 8), (qubic_group(), 192)] {
            let set: HashSet<Perm> = group.iter().copied().collect();
            assert_eq!(set.len(), n);
            // closed under composition
            for a in &group {
                for b in group.iter().step_by(7) {
                    let mut c = [0u8; 64];
                    for i in 0..64 {
                        c[i] = a[b[i] as usize];
                    }
                    assert!(set.contains(&c));
                }
            }
        }
    }

    #[test]
    fn every_symmetry_keeps_the_76_lines() {
        let lines = line_set();
        assert_eq!(lines.len(), 76);
        for p in qubic_group().iter().chain(sogo_group().iter()) {
            for &l in &lines {
                assert!(lines.contains(&apply(p, l)));
            }
        }
    }

    #[test]
    fn sogo_group_keeps_levels_and_is_inside_qubic_group() {
        let q: HashSet<Perm> = qubic_group().into_iter().collect();
        for p in sogo_group() {
            assert!(q.contains(&p));
            for i in 0..64 {
                assert_eq!(i / 16, p[i] as usize / 16);
            }
        }
    }

    #[test]
    fn qubic_orbits_of_cells_are_16_and_48() {
        let g = qubic_group();
        let orbit: HashSet<u8> = g.iter().map(|p| p[0]).collect();
        assert_eq!(orbit.len(), 16);
        let orbit: HashSet<u8> = g.iter().map(|p| p[1]).collect();
        assert_eq!(orbit.len(), 48);
    }

    #[test]
    fn bit_tricks_match_their_permutations() {
        let m = |f: [usize; 4]| [f, f, f];
        let cases: Vec<(fn(u64) -> u64, Perm)> = vec![
            (flip_x, coordinate_map([0, 1, 2], [REV4, ID4, ID4])),
            (flip_y, coordinate_map([0, 1, 2], [ID4, REV4, ID4])),
            (flip_z, coordinate_map([0, 1, 2], [ID4, ID4, REV4])),
            (swap_xy, coordinate_map([1, 0, 2], m(ID4))),
            (swap_yz, coordinate_map([0, 2, 1], m(ID4))),
            (swap_xz, coordinate_map([2, 1, 0], m(ID4))),
            (inside_out_12, coordinate_map([0, 1, 2], m([0, 2, 1, 3]))),
            (inside_out_01, coordinate_map([0, 1, 2], m([1, 0, 3, 2]))),
        ];
        let mut s = 0x1234_5678_9abc_def1u64;
        for (f, p) in cases {
            for i in 0..64 {
                assert_eq!(f(1 << i), 1 << p[i]);
            }
            for _ in 0..100 {
                let b = rng(&mut s);
                assert_eq!(f(b), apply(&p, b));
            }
        }
    }

    #[test]
    fn fast_minima_match_the_permutation_groups() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let (sg, qg) = (sogo_group(), qubic_group());
        for i in 0..600 {
            let occ = rng(&mut s) & rng(&mut s);
            let mut w = occ & rng(&mut s);
            let mut b = occ & !w;
            // ties: no white stones, or boards symmetric under some element
            if i % 3 == 1 {
                w = 0;
            } else if i % 3 == 2 {
                let p = &qg[(rng(&mut s) % 192) as usize];
                let (w2, b2) = (w | apply(p, w), b | apply(p, b));
                w = w2 & !b2;
                b = b2 & !w2;
            }
            let slow = |group: &[Perm]| {
                group
                    .iter()
                    .map(|p| pack(apply(p, w), apply(p, b)))
                    .min()
                    .unwrap()
            };
            assert_eq!(min8(w, b), slow(&sg));
            assert_eq!(min192(w, b), slow(&qg));
        }
    }

    #[test]
    fn seed_003_test_vector_has_384_distinct_images() {
        let w = 0x31cd_dc22_8257_7da5u64;
        let b = !w;
        let mut images = HashSet::new();
        for p in qubic_group() {
            let (iw, ib) = (apply(&p, w), apply(&p, b));
            images.insert((iw, ib));
            images.insert((ib, iw));
        }
        assert_eq!(images.len(), 384);
        // a full board with no line for either side
        for l in LINES {
            assert_ne!(l & w, l);
            assert_ne!(l & b, l);
        }
    }
}
