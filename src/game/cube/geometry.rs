//! The board's geometry, and nothing about playing on it: cell numbering, the 76 lines, the
//! levels and columns, and the line arithmetic every rule and proof is built from (which cells
//! complete a line, which lines are still live). It depends on nothing, so that the rules
//! (`rules`) and the pairing proofs (`pairing`) can both build on it.
//!
//! Bit layout: cell `x + 4*y + 16*z`, z = level (0 = bottom), column `x + 4*y`. A level is one
//! 16-bit lane, so "the cell above" is `<< 16` and the playable cells under gravity are
//! `((occupied << 16) | BOTTOM) & !occupied`:
//!
//! ```text
//!   level z:  y=3  12 13 14 15   (+16*z)
//!             y=2   8  9 10 11
//!             y=1   4  5  6  7
//!             y=0   0  1  2  3
//!                   x=0 1  2  3   (columns a..d = x, digits 1..4 = y+1)
//! ```

/// Cell index from coordinates.
pub const fn cell_index(x: u32, y: u32, z: u32) -> u32 {
    x + 4 * y + 16 * z
}

const fn in_range(v: i32) -> bool {
    v >= 0 && v < 4
}

/// The 13 line directions (one of each opposite pair).
const DIRS: [[i32; 3]; 13] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
    [1, 1, 0],
    [1, -1, 0],
    [1, 0, 1],
    [1, 0, -1],
    [0, 1, 1],
    [0, 1, -1],
    [1, 1, 1],
    [1, 1, -1],
    [1, -1, 1],
    [1, -1, -1],
];

const fn build_lines() -> [u64; 76] {
    let mut out = [0u64; 76];
    let mut n = 0;
    let mut d = 0;
    while d < 13 {
        let mut start: i32 = 0;
        while start < 64 {
            let (x, y, z) = (start % 4, (start / 4) % 4, start / 16);
            let (dx, dy, dz) = (DIRS[d][0], DIRS[d][1], DIRS[d][2]);
            // a line starts where stepping backwards leaves the board and 3 steps forward stay on it
            let back_out = !(in_range(x - dx) && in_range(y - dy) && in_range(z - dz));
            let fwd_in = in_range(x + 3 * dx) && in_range(y + 3 * dy) && in_range(z + 3 * dz);
            if back_out && fwd_in {
                let mut m = 0u64;
                let mut k = 0;
                while k < 4 {
                    m |= 1u64 << ((x + k * dx) + 4 * (y + k * dy) + 16 * (z + k * dz));
                    k += 1;
                }
                out[n] = m;
                n += 1;
            }
            start += 1;
        }
        d += 1;
    }
    assert!(n == 76);
    out
}

/// The 76 winning lines as 4-bit masks: 48 axis-parallel, 24 face diagonals, 4 space diagonals.
pub const LINES: [u64; 76] = build_lines();

const fn build_through() -> [[u64; 7]; 64] {
    let mut out = [[0u64; 7]; 64];
    let mut c = 0;
    while c < 64 {
        let mut k = 0;
        let mut i = 0;
        while i < 76 {
            if LINES[i] >> c & 1 == 1 {
                out[c][k] = LINES[i];
                k += 1;
            }
            i += 1;
        }
        c += 1;
    }
    out
}

/// The lines through each cell (7 for the 16 "strong" cells, 4 for the others), padded with 0.
pub const LINES_THROUGH: [[u64; 7]; 64] = build_through();

/// The multiplier that copies the first cell of a line of stride `stride` onto its four cells
/// (bits 0, `stride`, 2 `stride`, 3 `stride`; the copies of distinct lines of a family never
/// overlap, so there is no carry).
const fn line_spread(stride: u32) -> u64 {
    1 | 1 << stride | 1 << (2 * stride) | 1 << (3 * stride)
}

/// The 76 lines as 13 families of parallel lines, one per direction: `(first, stride)`, where
/// `first` holds the lowest cell of every line of the family and the line through first cell
/// `c` is `c, c + stride, c + 2 stride, c + 3 stride`. Families let a question about every line
/// be asked of 16 lines at once with shifts (see [`pair_cells`]).
pub(crate) const FAMILIES: [(u64, u32); 13] = build_families();

const fn build_families() -> [(u64, u32); 13] {
    let mut out = [(0u64, 0u32); 13];
    let mut d = 0;
    while d < 13 {
        let (dx, dy, dz) = (DIRS[d][0], DIRS[d][1], DIRS[d][2]);
        let stride = dx + 4 * dy + 16 * dz;
        let stride = if stride < 0 { -stride } else { stride } as u32;
        let spread = line_spread(stride);
        let mut first = 0u64;
        let mut i = 0;
        while i < 76 {
            let low = LINES[i] & LINES[i].wrapping_neg();
            if low.wrapping_mul(spread) == LINES[i] {
                first |= low;
            }
            i += 1;
        }
        out[d] = (first, stride);
        d += 1;
    }
    // every line belongs to exactly one family
    let mut total = 0;
    let mut f = 0;
    while f < 13 {
        total += out[f].0.count_ones();
        f += 1;
    }
    assert!(total == 76);
    out
}

/// The cells on lines holding exactly two stones of `own` and none of `opp` (a stone there makes
/// a threat), family by family: the four cells of every line of a family are shifted onto its
/// first cell and counted with a half adder, and the first cells of the qualifying lines are
/// copied up their lines by one multiplication (the copies land on distinct cells: no carry).
/// This replaced a loop over the 76 lines that cost a third of the forcing-win search.
#[inline(always)]
pub(crate) fn pair_cells(own: u64, opp: u64) -> u64 {
    // one call per family with the stride as a constant, so that every shift is an immediate
    macro_rules! families {
        ($($i:literal)*) => { 0 $(| family_pair_cells::<{ FAMILIES[$i].1 }>(own, opp, FAMILIES[$i].0))* };
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12)
}

/// The cells of the lines that miss a colour (live lines), family by family as in
/// [`pair_cells`]: OR-ing each line's four cells onto its first cell tells whether the line
/// holds White, and Black; the live first cells are copied up their lines by a multiplication.
#[inline(always)]
pub(crate) fn live_line_cells(w: u64, b: u64) -> u64 {
    macro_rules! families {
        ($($i:literal)*) => { 0 $(| family_live_cells::<{ FAMILIES[$i].1 }>(w, b, FAMILIES[$i].0))* };
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12)
}

/// [`live_line_cells`] for the family of lines with first cells `first` and stride `D`.
#[inline(always)]
fn family_live_cells<const D: u32>(w: u64, b: u64, first: u64) -> u64 {
    let holds = |s: u64| (s | s >> D | s >> (2 * D) | s >> (3 * D)) & first;
    (first & !(holds(w) & holds(b))).wrapping_mul(line_spread(D))
}

/// [`pair_cells`] for the family of lines with first cells `first` and stride `D`.
#[inline(always)]
fn family_pair_cells<const D: u32>(own: u64, opp: u64, first: u64) -> u64 {
    family_pair_starts::<D>(own, opp, first).wrapping_mul(line_spread(D))
}

/// The first cells of the lines of one family (first cells `first`, stride `D`) holding exactly
/// two stones of `own` and none of `opp`.
#[inline(always)]
fn family_pair_starts<const D: u32>(own: u64, opp: u64, first: u64) -> u64 {
    let [a, b, c, e] = [0, D, 2 * D, 3 * D].map(|k| own >> k & first);
    let blocked = (opp | opp >> D | opp >> (2 * D) | opp >> (3 * D)) & first;
    // two of four: one in each half, or both of one half and none of the other
    let (ab2, ab1, ce2, ce1) = (a & b, a ^ b, c & e, c ^ e);
    let two = (ab1 & ce1) | (ab2 & !(ce2 | ce1)) | (ce2 & !(ab2 | ab1));
    two & !blocked
}

/// Under gravity, for the lines holding exactly two stones of `own` and none of `opp`, with
/// `playable` the cells a stone may go now: `(makers, hanging)`, the playable cells where a stone
/// of `own` creates a poison (Sogo `-g`), and the empty cells of those lines that are not
/// playable.
///
/// Why this is exact: a stone on an empty cell `a` of such a line makes a threat at its other
/// empty cell `b`; that threat is a poison when `b` is not playable afterwards, that is when `b`
/// is not playable now and is not the cell right above `a`. Two cells of one line lie one above
/// the other only on a vertical line (a stride of 16 is one step of the vertical family, and no
/// family has stride 8), and a vertical line of a reachable position holds its stones at the
/// bottom, so its two empty cells are `a` and the cell above it: no poison. Hence the makers are
/// the playable empty cells of the non-vertical such lines with exactly one playable empty cell.
#[inline(always)]
pub(crate) fn poison_lines(own: u64, opp: u64, playable: u64) -> (u64, u64) {
    macro_rules! families {
        ($($i:literal)*) => {{
            let (mut makers, mut hanging) = (0, 0);
            $(
                let (m, h) = family_poison_lines::<{ FAMILIES[$i].1 }>(own, opp, playable, FAMILIES[$i].0);
                makers |= m;
                hanging |= h;
            )*
            (makers, hanging)
        }};
    }
    // family 2 is the vertical one (see the doc comment)
    const _: () = assert!(FAMILIES[2].1 == 16);
    families!(0 1 3 4 5 6 7 8 9 10 11 12)
}

/// [`poison_lines`] for the family of lines with first cells `first` and stride `D`.
#[inline(always)]
fn family_poison_lines<const D: u32>(own: u64, opp: u64, playable: u64, first: u64) -> (u64, u64) {
    let spread = line_spread(D);
    let starts = family_pair_starts::<D>(own, opp, first);
    // the line's playable cells are empty ones (occupied cells are never playable): exactly one
    let [pa, pb, pc, pe] = [0, D, 2 * D, 3 * D].map(|k| playable >> k & first);
    let any = pa | pb | pc | pe;
    let several = (pa & pb) | (pc & pe) | ((pa | pb) & (pc | pe));
    let makers = (starts & any & !several).wrapping_mul(spread) & playable;
    let hanging = starts.wrapping_mul(spread) & !(own | opp | playable);
    (makers, hanging)
}

/// Cells at levels 1 and 3 (0-based).
pub(crate) const ODD_LEVELS: u64 = 0xffff_0000_ffff_0000;
/// The bottom level.
pub(crate) const BOTTOM: u64 = 0xffff;

/// The 16 columns (bits 0..16) holding a cell of `cells`.
#[inline]
pub(crate) fn columns(cells: u64) -> u64 {
    (cells | cells >> 16 | cells >> 32 | cells >> 48) & BOTTOM
}

/// Every cell of the columns `cols` (bits 0..16).
#[inline]
pub(crate) fn spread(cols: u64) -> u64 {
    cols | cols << 16 | cols << 32 | cols << 48
}

/// Threat cells of `own` created on the lines through `mv` (after `mv` joined `own`).
///
/// A line through `mv` is a threat of `own` when exactly one of its cells is missing from `own`,
/// that is when the missing cells `e = line & !own` form a single bit: `e & (e - 1) == 0`. No
/// population count: the default x86-64 target has no `popcnt` instruction, and the software
/// count made this the most expensive part of a play. `e == 0` (a complete line, or the zero
/// padding of [`LINES_THROUGH`]) passes the test but adds nothing.
#[inline(always)]
pub(crate) fn new_threats(own: u64, mv: u64) -> u64 {
    let lines = &LINES_THROUGH[(mv.trailing_zeros() & 63) as usize];
    let mut t = 0;
    for &l in lines {
        let e = l & !own;
        let single = ((e & e.wrapping_sub(1) == 0) as u64).wrapping_neg();
        t |= e & single;
    }
    t
}

/// The number of stones on a line whose move cell is still empty: at most 3. Without a
/// population count (the default x86-64 target has no `popcnt`, and the software count is
/// slow): clear the lowest bit up to three times.
#[inline(always)]
pub(crate) fn stones_on_line(s: u64) -> usize {
    debug_assert!(s.count_ones() <= 3);
    let s1 = s & s.wrapping_sub(1);
    let s2 = s1 & s1.wrapping_sub(1);
    (s != 0) as usize + (s1 != 0) as usize + (s2 != 0) as usize
}

/// Calls `f` with every line lying entirely inside `set`, in the order of [`LINES`] (families in
/// the same order, lines by their first cells), found family by family as in
/// [`any_line_within`]: a few operations per family and one call per line found, where a loop
/// over the 76 lines tests each (that loop was a quarter of the pairing bound's time).
#[inline]
pub(crate) fn for_each_line_within(set: u64, mut f: impl FnMut(u64)) {
    macro_rules! families {
        ($($i:literal)*) => {$({
            const D: u32 = FAMILIES[$i].1;
            let mut starts = family_within::<D>(set, FAMILIES[$i].0);
            while starts != 0 {
                let s = starts & starts.wrapping_neg();
                starts ^= s;
                f(s.wrapping_mul(line_spread(D)));
            }
        })*};
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12);
}

/// Whether some line lies entirely inside `set`.
#[inline]
pub(crate) fn any_line_within(set: u64) -> bool {
    // a line lies inside `set` when its four cells, shifted onto its first cell, all do
    macro_rules! families {
        ($($i:literal)*) => { 0 $(| family_within::<{ FAMILIES[$i].1 }>(set, FAMILIES[$i].0))* };
    }
    families!(0 1 2 3 4 5 6 7 8 9 10 11 12) != 0
}

/// The first cells of the lines of one family (first cells `first`, stride `D`) inside `set`.
#[inline(always)]
fn family_within<const D: u32>(set: u64, first: u64) -> u64 {
    set & set >> D & set >> (2 * D) & set >> (3 * D) & first
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::game::Bits;
    use crate::util::rng::xorshift;

    #[test]
    fn there_are_76_lines_48_axis_24_face_4_space() {
        assert_eq!(LINES.len(), 76);
        let mut kinds = [0; 4];
        for &l in &LINES {
            assert_eq!(l.count_ones(), 4);
            let cells: Vec<u32> = Bits(l).map(|m| m.trailing_zeros()).collect();
            let varying = (0..3)
                .filter(|&a| {
                    let v: Vec<u32> = cells
                        .iter()
                        .map(|&c| [c % 4, c / 4 % 4, c / 16][a])
                        .collect();
                    v.iter().any(|&x| x != v[0])
                })
                .count();
            kinds[varying] += 1;
        }
        assert_eq!(kinds, [0, 48, 24, 4]);
        let distinct: std::collections::HashSet<u64> = LINES.iter().copied().collect();
        assert_eq!(distinct.len(), 76);
    }

    /// A pass hands the move to the other side on the same stones, and its id differs from

    #[test]
    fn sixteen_strong_cells_with_7_lines_and_48_with_4() {
        let mut counts = [0; 8];
        for c in 0..64 {
            let n = LINES_THROUGH[c].iter().filter(|&&l| l != 0).count();
            counts[n] += 1;
            let (x, y, z) = (c % 4, c / 4 % 4, c / 16);
            let strong = [x, y, z].iter().all(|&v| v == 0 || v == 3)
                || [x, y, z].iter().all(|&v| v == 1 || v == 2);
            assert_eq!(n == 7, strong, "cell {c}");
        }
        assert_eq!(counts[7], 16);
        assert_eq!(counts[4], 48);
    }

    /// The families rebuild exactly the 76 lines, and the shift-and-count forms of the pair
    /// cells and of "some line inside a set" agree with the line-by-line definitions on random
    /// stone sets of every density.
    #[test]
    fn line_family_forms_match_the_line_by_line_definitions() {
        let mut rebuilt: Vec<u64> = FAMILIES
            .iter()
            .flat_map(|&(first, d)| {
                Bits(first).map(move |c| c.wrapping_mul(1 | 1 << d | 1 << (2 * d) | 1 << (3 * d)))
            })
            .collect();
        let mut lines = LINES.to_vec();
        rebuilt.sort_unstable();
        lines.sort_unstable();
        assert_eq!(rebuilt, lines);
        let mut seed = 0x5eed_u64;
        for round in 0..20_000 {
            // densities from sparse to nearly full, White and Black disjoint
            let cut = round % 5;
            let mut pick = || (0..=cut).fold(u64::MAX, |m, _| m & xorshift(&mut seed));
            let own = pick();
            let opp = pick() & !own;
            let slow = LINES
                .iter()
                .filter(|&&l| l & opp == 0 && (l & own).count_ones() == 2)
                .fold(0, |cells, &l| cells | l);
            assert_eq!(pair_cells(own, opp), slow, "own {own:#x} opp {opp:#x}");
            let set = own | opp;
            let inside = LINES.iter().any(|&l| l & !set == 0);
            assert_eq!(any_line_within(set), inside, "set {set:#x}");
            // the same lines in the same order as `LINES` (the pairing bound's first surviving
            // line, and so its level pairs, depend on the order)
            let mut found = Vec::new();
            for_each_line_within(set, |l| found.push(l));
            let scanned: Vec<u64> = LINES.iter().copied().filter(|&l| l & !set == 0).collect();
            assert_eq!(found, scanned, "set {set:#x}");
        }
    }
}
