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

// x -> 3-x: swap neighbours, then pairs of neighbours
const X_EVEN: u64 = cell_mask!(|x, _y, _z| x % 2 == 0);
const X_LOW: u64 = cell_mask!(|x, _y, _z| x < 2);
const Y_EVEN: u64 = cell_mask!(|_x, y, _z| y % 2 == 0);
const Y_LOW: u64 = cell_mask!(|_x, y, _z| y < 2);
const Z_EVEN: u64 = cell_mask!(|_x, _y, z| z % 2 == 0);
const X_ONE: u64 = cell_mask!(|x, _y, _z| x == 1);
const Y_ONE: u64 = cell_mask!(|_x, y, _z| y == 1);
const Z_ONE: u64 = cell_mask!(|_x, _y, z| z == 1);

/// x -> 3 - x.
#[inline(always)]
pub fn flip_x(b: u64) -> u64 {
    let b = ((b >> 1) & X_EVEN) | ((b & X_EVEN) << 1);
    ((b >> 2) & X_LOW) | ((b & X_LOW) << 2)
}

/// y -> 3 - y.
#[inline(always)]
pub fn flip_y(b: u64) -> u64 {
    let b = ((b >> 4) & Y_EVEN) | ((b & Y_EVEN) << 4);
    ((b >> 8) & Y_LOW) | ((b & Y_LOW) << 8)
}

/// z -> 3 - z (levels upside down; not a Sogo symmetry).
#[inline(always)]
pub fn flip_z(b: u64) -> u64 {
    let b = b.rotate_left(32);
    ((b >> 16) & Z_EVEN) | ((b & Z_EVEN) << 16)
}

/// x <-> y: swap the 2x2 blocks off the diagonal, then the cells inside the blocks.
#[inline(always)]
pub fn swap_xy(b: u64) -> u64 {
    let b = delta_swap(b, cell_mask!(|x, y, _z| x >= 2 && y < 2), 6);
    delta_swap(b, cell_mask!(|x, y, _z| x % 2 == 1 && y % 2 == 0), 3)
}

/// y <-> z.
#[inline(always)]
pub fn swap_yz(b: u64) -> u64 {
    let b = delta_swap(b, cell_mask!(|_x, y, z| y >= 2 && z < 2), 24);
    delta_swap(b, cell_mask!(|_x, y, z| y % 2 == 1 && z % 2 == 0), 12)
}

/// x <-> z.
#[inline(always)]
pub fn swap_xz(b: u64) -> u64 {
    let b = delta_swap(b, cell_mask!(|x, _y, z| x >= 2 && z < 2), 30);
    delta_swap(b, cell_mask!(|x, _y, z| x % 2 == 1 && z % 2 == 0), 15)
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
    let b = ((b >> 1) & X_EVEN) | ((b & X_EVEN) << 1);
    let b = ((b >> 4) & Y_EVEN) | ((b & Y_EVEN) << 4);
    ((b >> 16) & Z_EVEN) | ((b & Z_EVEN) << 16)
}

/// Keeps the smaller of two (white, black) pairs, compared as one 128-bit number.
#[inline(always)]
fn pack(w: u64, b: u64) -> u128 {
    ((w as u128) << 64) | b as u128
}

/// The minimum of the 8 square-symmetry images of `(w, b)` as `white << 64 | black`.
#[inline]
pub fn min8(w: u64, b: u64) -> u128 {
    // walk: id, fx, fx fy, fy | then transpose and the same walk (see the tests)
    let (mut w, mut b) = (w, b);
    let mut best = pack(w, b);
    w = flip_x(w);
    b = flip_x(b);
    best = best.min(pack(w, b));
    w = flip_y(w);
    b = flip_y(b);
    best = best.min(pack(w, b));
    w = flip_x(w);
    b = flip_x(b);
    best = best.min(pack(w, b));
    w = swap_xy(w);
    b = swap_xy(b);
    best = best.min(pack(w, b));
    w = flip_x(w);
    b = flip_x(b);
    best = best.min(pack(w, b));
    w = flip_y(w);
    b = flip_y(b);
    best = best.min(pack(w, b));
    w = flip_x(w);
    b = flip_x(b);
    best.min(pack(w, b))
}

/// The square walk of [`min8`] as single steps: image `k` is reached from image `k - 1`.
#[inline(always)]
fn square_step(b: u64, k: usize) -> u64 {
    match k {
        1 | 3 | 5 | 7 => flip_x(b),
        2 | 6 => flip_y(b),
        _ => swap_xy(b),
    }
}

/// The coset representative `(vertical, inside_out, z_flip)` of the Qubic walk applied to `b`.
#[inline(always)]
fn coset_image(b: u64, vertical: usize, io: usize, fz: bool) -> u64 {
    let mut b = match vertical {
        0 => b,
        1 => swap_yz(b),
        _ => swap_xz(b),
    };
    for step in 1..=io {
        b = if step == 2 {
            inside_out_01(b)
        } else {
            inside_out_12(b)
        };
    }
    if fz {
        flip_z(b)
    } else {
        b
    }
}

/// The minimum of the 192 Qubic images of `(w, b)`: for each of the 3 choices of the axis that
/// becomes vertical, the 4 inside-out maps and the 2 level orders, the 8 square images.
///
/// Two passes: first only White's 192 images (half the work), remembering which group elements
/// reach the smallest; then Black's image under just those elements (usually one) breaks ties.
#[inline]
pub fn min192(w: u64, b: u64) -> u128 {
    let mut best_w = u64::MAX;
    // candidates as (coset index, square index) packed in a byte each: coset 0..24, square 0..8
    let mut cand = [0u16; 192];
    let mut n = 0;
    for vertical in 0..3 {
        let mut w1 = coset_image(w, vertical, 0, false);
        for io in 0..4 {
            if io > 0 {
                w1 = if io == 2 {
                    inside_out_01(w1)
                } else {
                    inside_out_12(w1)
                };
            }
            for fz in 0..2 {
                let x = if fz == 1 { flip_z(w1) } else { w1 };
                let coset = ((vertical * 4 + io) * 2 + fz) as u16;
                // the square walk unrolled (same steps as `square_step`)
                let x1 = flip_x(x);
                let x2 = flip_y(x1);
                let x3 = flip_x(x2);
                let x4 = swap_xy(x3);
                let x5 = flip_x(x4);
                let x6 = flip_y(x5);
                let x7 = flip_x(x6);
                for (k, y) in [x, x1, x2, x3, x4, x5, x6, x7].into_iter().enumerate() {
                    if y <= best_w {
                        if y < best_w {
                            best_w = y;
                            n = 0;
                        }
                        cand[n] = coset << 3 | k as u16;
                        n += 1;
                    }
                }
            }
        }
    }
    let mut best_b = u64::MAX;
    for &c in &cand[..n] {
        let coset = (c >> 3) as usize;
        let (vertical, io, fz) = (coset / 8, coset / 2 % 4, coset % 2 == 1);
        let mut y = coset_image(b, vertical, io, fz);
        for k in 1..=(c & 7) as usize {
            y = square_step(y, k);
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

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

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
            let slow8 = sg
                .iter()
                .map(|p| pack(apply(p, w), apply(p, b)))
                .min()
                .unwrap();
            assert_eq!(min8(w, b), slow8);
            let slow192 = qg
                .iter()
                .map(|p| pack(apply(p, w), apply(p, b)))
                .min()
                .unwrap();
            assert_eq!(min192(w, b), slow192);
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
