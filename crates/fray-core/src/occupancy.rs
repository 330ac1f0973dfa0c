//! The occupancy index: which combatants occupy which squares, kept up to date on every move,
//! so that "who stands here", "who is within 2 squares" and "the nearest foe" cost the same in a
//! battle of 12 and of 500.
//!
//! A small fight (up to [`LINEAR_LIMIT`] occupied squares) is answered by reading a compact
//! list of occupied squares, which is faster than hashing at that size. A larger one cuts the
//! grid into cells of [`CELL`] × [`CELL`] squares; a hash map holds, for each cell
//! that anyone occupies, the head of a chain of *entries* (one per occupied square of each
//! combatant). A lookup reads one cell's chain; an area query reads the cells the area
//! overlaps (or every entry, when that is fewer); the nearest-combatant search expands rings of
//! cells outward from the searcher and stops as soon as no unexplored square can be nearer than
//! the best found.
//!
//! The index knows squares and ids only. Whether an occupant *blocks*, *stands* or is a *foe*
//! is the ruleset's to say (see [`crate::Board`]); queries take a filter. Results never depend
//! on the order of a cell's chain (which reflects the history of moves): area queries are
//! returned sorted by id, and searches break ties by an explicit total order.

use crate::grid::{Direction, Pos};
use crate::ids::CombatantId;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Up to this many occupied squares, queries read the list of squares instead of cells.
pub const LINEAR_LIMIT: usize = 32;

/// Side of a cell of the index, in squares (a power of two).
pub const CELL: i32 = 1 << CELL_SHIFT;
const CELL_SHIFT: u32 = 2;

/// The layer of combatants out of the fight (down, dead, gone): [`Occupancy::nearest_outside`]
/// skips it as well as the searcher's own, so a search for the nearest foe still fighting does
/// not pay for the fallen (see [`Occupancy::set_layer`]).
pub const OUT_OF_FIGHT: u8 = u8::MAX;

/// No entry (end of a chain).
const NONE: u32 = u32::MAX;

/// The cell holding a square (floor division, so negative coordinates work).
fn cell_of(square: Pos) -> (i32, i32) {
    (square.x >> CELL_SHIFT, square.y >> CELL_SHIFT)
}

/// A cell's key in the map.
fn key(cx: i32, cy: i32) -> u64 {
    (u64::from(cx as u32) << 32) | u64::from(cy as u32)
}

/// A fast hasher for cell keys (one multiplication; keys are small integers, not attacker
/// controlled beyond the loader's coordinate limit, and the map is never iterated).
#[derive(Debug, Default, Clone, Copy)]
pub struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing of the packed key, folded so both halves reach the high bits.
        self.0 = (self.0 ^ n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// One occupied square of one combatant.
#[derive(Debug, Clone, Copy)]
struct Entry {
    square: Pos,
    who: CombatantId,
    /// Its combatant's layer (a ruleset's side: see [`Occupancy::with_layers`]).
    layer: u8,
    /// Still one of its combatant's squares (an entry left behind by a larger footprint is
    /// not).
    live: bool,
    /// The next entry of the same cell, or [`NONE`].
    next: u32,
}

/// Where one combatant's entries are.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// Its first entry.
    first: u32,
    /// How many entries (squares) it has.
    count: u32,
}

/// The occupancy index of a fight (see the module documentation).
///
/// Equality compares what the index says (who occupies which squares), not how its chains
/// happen to be ordered; hashing adds nothing, because the index is derived from the
/// combatants' squares, which a state's hash already covers.
#[derive(Debug, Clone, Default)]
pub struct Occupancy {
    /// Cell → its first entry; `None` while the fight is small enough to read `entries`.
    cells: Option<HashMap<u64, u32, BuildHasherDefault<CellHasher>>>,
    entries: Vec<Entry>,
    slots: Vec<Slot>,
    /// Cells ever linked span at least `lo..=hi` (grow-only, so never too small): the ring
    /// search skips cells outside without probing the map.
    bounds: CellBounds,
}

/// A rectangle of cells (inclusive), grown to hold every cell ever linked.
#[derive(Debug, Clone, Copy)]
struct CellBounds {
    lo: (i32, i32),
    hi: (i32, i32),
}

impl Default for CellBounds {
    fn default() -> Self {
        CellBounds {
            lo: (i32::MAX, i32::MAX),
            hi: (i32::MIN, i32::MIN),
        }
    }
}

impl PartialEq for Occupancy {
    fn eq(&self, other: &Self) -> bool {
        self.slots.len() == other.slots.len()
            && (0..self.slots.len() as u16)
                .map(CombatantId)
                .all(|who| self.squares_of(who).eq(other.squares_of(who)))
    }
}

impl Eq for Occupancy {}

impl Hash for Occupancy {
    fn hash<H: Hasher>(&self, _state: &mut H) {}
}

impl Occupancy {
    /// The index of combatants standing on `squares`, one square each, in roster order.
    pub fn new(squares: impl IntoIterator<Item = Pos>) -> Self {
        Self::with_layers(squares.into_iter().map(|square| (square, 0)))
    }

    /// The index of combatants standing on `squares`, one square each, in roster order, each
    /// in a layer (a ruleset's side, which never changes): [`Occupancy::nearest_outside`]
    /// skips one layer's entries without asking about them.
    pub fn with_layers(squares: impl IntoIterator<Item = (Pos, u8)>) -> Self {
        let mut index = Occupancy::default();
        for (i, (square, layer)) in squares.into_iter().enumerate() {
            let who = CombatantId(i as u16);
            index.slots.push(Slot {
                first: i as u32,
                count: 1,
            });
            index.entries.push(Entry {
                square,
                who,
                layer,
                live: true,
                next: NONE,
            });
        }
        index.grow_cells();
        index
    }

    /// Builds the cells once the fight outgrows the list.
    fn grow_cells(&mut self) {
        if self.cells.is_some() || self.entries.len() <= LINEAR_LIMIT {
            return;
        }
        self.cells = Some(HashMap::default());
        self.bounds = CellBounds::default();
        for e in 0..self.entries.len() as u32 {
            if self.entries[e as usize].live {
                self.link(e);
            }
        }
    }

    /// How many combatants the index holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when it holds nobody.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The squares `who` occupies.
    pub fn squares_of(&self, who: CombatantId) -> impl Iterator<Item = Pos> + '_ {
        let slot = self.slots[who.index()];
        self.entries[slot.first as usize..(slot.first + slot.count) as usize]
            .iter()
            .map(|e| e.square)
    }

    /// The first square `who` occupies (its only square, for a one-square piece).
    pub fn square_of(&self, who: CombatantId) -> Pos {
        self.entries[self.slots[who.index()].first as usize].square
    }

    /// Puts `who` in `layer` (its side's, or [`OUT_OF_FIGHT`] while it takes no part). A
    /// ruleset that uses [`OUT_OF_FIGHT`] must put a combatant back in its side's layer
    /// whenever it could fight again, or searches skip it.
    pub fn set_layer(&mut self, who: CombatantId, layer: u8) {
        let slot = self.slots[who.index()];
        for e in &mut self.entries[slot.first as usize..(slot.first + slot.count) as usize] {
            e.layer = layer;
        }
    }

    /// Moves a one-square piece to `to` (a larger piece: see [`Occupancy::set_squares`]).
    pub fn move_to(&mut self, who: CombatantId, to: Pos) {
        let slot = self.slots[who.index()];
        debug_assert_eq!(slot.count, 1, "move_to is for one-square pieces");
        let e = slot.first;
        if self.entries[e as usize].square == to {
            return;
        }
        let from = self.entries[e as usize].square;
        if self.cells.is_some() && cell_of(from) != cell_of(to) {
            self.unlink(e);
            self.entries[e as usize].square = to;
            self.link(e);
        } else {
            // Same cell (or no cells): the chain does not change.
            self.entries[e as usize].square = to;
        }
    }

    /// Sets the squares `who` occupies (any number, at least one).
    pub fn set_squares(&mut self, who: CombatantId, squares: &[Pos]) {
        assert!(!squares.is_empty(), "a piece occupies at least one square");
        let slot = self.slots[who.index()];
        let layer = self.entries[slot.first as usize].layer;
        for e in slot.first..slot.first + slot.count {
            if self.cells.is_some() {
                self.unlink(e);
            }
            self.entries[e as usize].live = false;
        }
        let first = if squares.len() as u32 <= slot.count {
            slot.first
        } else {
            // The old entries stay unlinked; the piece gets a fresh run at the end.
            let first = self.entries.len() as u32;
            self.entries.extend(squares.iter().map(|_| Entry {
                square: Pos::new(0, 0),
                who,
                layer,
                live: false,
                next: NONE,
            }));
            first
        };
        for (k, &square) in squares.iter().enumerate() {
            let e = first + k as u32;
            self.entries[e as usize] = Entry {
                square,
                who,
                layer,
                live: true,
                next: NONE,
            };
            if self.cells.is_some() {
                self.link(e);
            }
        }
        self.slots[who.index()] = Slot {
            first,
            count: squares.len() as u32,
        };
        self.grow_cells();
    }

    fn link(&mut self, e: u32) {
        let (cx, cy) = cell_of(self.entries[e as usize].square);
        let Some(cells) = self.cells.as_mut() else {
            return;
        };
        let b = &mut self.bounds;
        b.lo = (b.lo.0.min(cx), b.lo.1.min(cy));
        b.hi = (b.hi.0.max(cx), b.hi.1.max(cy));
        let head = cells.entry(key(cx, cy)).or_insert(NONE);
        self.entries[e as usize].next = *head;
        *head = e;
    }

    fn unlink(&mut self, e: u32) {
        let (cx, cy) = cell_of(self.entries[e as usize].square);
        let k = key(cx, cy);
        let Some(cells) = self.cells.as_mut() else {
            return;
        };
        let Some(&head) = cells.get(&k) else {
            return;
        };
        let next = self.entries[e as usize].next;
        if head == e {
            if next == NONE {
                cells.remove(&k);
            } else {
                cells.insert(k, next);
            }
            return;
        }
        let mut at = head;
        while at != NONE {
            let after = self.entries[at as usize].next;
            if after == e {
                self.entries[at as usize].next = next;
                return;
            }
            at = after;
        }
    }

    /// Calls `visit` for each entry (combatant and square) of cell `(cx, cy)`.
    #[inline]
    fn each_in_cell(&self, cx: i32, cy: i32, mut visit: impl FnMut(CombatantId, Pos)) {
        let Some(&head) = self.cells.as_ref().and_then(|c| c.get(&key(cx, cy))) else {
            return;
        };
        let mut at = head;
        while at != NONE {
            let e = self.entries[at as usize];
            visit(e.who, e.square);
            at = e.next;
        }
    }

    /// Is anyone on `square` for whom `counts` holds?
    #[inline]
    pub fn any_at(&self, square: Pos, mut counts: impl FnMut(CombatantId) -> bool) -> bool {
        let Some(cells) = &self.cells else {
            return self
                .entries
                .iter()
                .any(|e| e.square == square && e.live && counts(e.who));
        };
        let (cx, cy) = cell_of(square);
        let Some(&head) = cells.get(&key(cx, cy)) else {
            return false;
        };
        let mut at = head;
        while at != NONE {
            let e = self.entries[at as usize];
            if e.square == square && counts(e.who) {
                return true;
            }
            at = e.next;
        }
        false
    }

    /// The lowest-numbered combatant on `square` for whom `counts` holds.
    pub fn first_at(
        &self,
        square: Pos,
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> Option<CombatantId> {
        let mut found: Option<CombatantId> = None;
        self.each_within(square, 0, |who, _| {
            if found.is_none_or(|f| who < f) && counts(who) {
                found = Some(who);
            }
        });
        found
    }

    /// Calls `visit` with each occupied square within `radius` squares (Chebyshev) of
    /// `center` and its occupant, in no particular order (a piece of several squares is
    /// visited once per square in the area).
    pub fn each_within(&self, center: Pos, radius: i32, mut visit: impl FnMut(CombatantId, Pos)) {
        let radius = radius.max(0);
        let near = |p: Pos| p.squares_to(center) <= radius;
        let (lo, hi) = (
            cell_of(Pos::new(
                center.x.saturating_sub(radius),
                center.y.saturating_sub(radius),
            )),
            cell_of(Pos::new(
                center.x.saturating_add(radius),
                center.y.saturating_add(radius),
            )),
        );
        let probes = (i64::from(hi.0 - lo.0) + 1) * (i64::from(hi.1 - lo.1) + 1);
        if self.cells.as_ref().is_none_or(|c| probes > c.len() as i64) {
            // A small fight, or a wide area: reading the entries is cheaper than probing cells.
            for e in &self.entries {
                if e.live && near(e.square) {
                    visit(e.who, e.square);
                }
            }
            return;
        }
        for cy in lo.1..=hi.1 {
            for cx in lo.0..=hi.0 {
                self.each_in_cell(cx, cy, |who, at| {
                    if near(at) {
                        visit(who, at);
                    }
                });
            }
        }
    }

    /// Is anyone with a square within `radius` of `center` someone for whom `counts` holds?
    /// Stops at the first.
    pub fn any_within(
        &self,
        center: Pos,
        radius: i32,
        mut counts: impl FnMut(CombatantId, Pos) -> bool,
    ) -> bool {
        let radius = radius.max(0);
        let near = |p: Pos| p.squares_to(center) <= radius;
        let Some(cells) = &self.cells else {
            return self
                .entries
                .iter()
                .any(|e| e.live && near(e.square) && counts(e.who, e.square));
        };
        let (lo, hi) = (
            cell_of(Pos::new(
                center.x.saturating_sub(radius),
                center.y.saturating_sub(radius),
            )),
            cell_of(Pos::new(
                center.x.saturating_add(radius),
                center.y.saturating_add(radius),
            )),
        );
        for cy in lo.1..=hi.1 {
            for cx in lo.0..=hi.0 {
                let mut at = cells.get(&key(cx, cy)).copied().unwrap_or(NONE);
                while at != NONE {
                    let e = self.entries[at as usize];
                    if near(e.square) && counts(e.who, e.square) {
                        return true;
                    }
                    at = e.next;
                }
            }
        }
        false
    }

    /// The combatants with a square within `radius` of `center` for whom `counts` holds,
    /// each once, in id order.
    pub fn within(
        &self,
        center: Pos,
        radius: i32,
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> Nearby {
        let mut found = Nearby::default();
        self.each_within(center, radius, |who, _| found.push(who));
        found.settle(&mut counts);
        found
    }

    /// The best-ranked combatant nearest to `from` within `max_squares`: the least
    /// `(distance, rank)` over every occupied square whose occupant `rank` accepts (`Some`),
    /// distance in squares (Chebyshev) from `from` to the square. Ties on `(distance, rank)`
    /// go to the lowest id. Searches rings of cells outward from `from`, so the cost depends
    /// on how far the answer is, not on how many combatants there are.
    pub fn nearest<K: Ord>(
        &self,
        from: Pos,
        max_squares: i32,
        rank: impl FnMut(CombatantId, Pos) -> Option<K>,
    ) -> Option<(i32, K, CombatantId)> {
        self.nearest_skipping(from, max_squares, None, rank)
    }

    /// [`Occupancy::nearest`] among the combatants outside layer `skip` (see
    /// [`Occupancy::with_layers`]) and outside [`OUT_OF_FIGHT`]: `rank` is never asked about
    /// those, so a search for the nearest foe does not pay for the friends around the
    /// searcher or the fallen.
    pub fn nearest_outside<K: Ord>(
        &self,
        from: Pos,
        max_squares: i32,
        skip: u8,
        rank: impl FnMut(CombatantId, Pos) -> Option<K>,
    ) -> Option<(i32, K, CombatantId)> {
        self.nearest_skipping(from, max_squares, Some(skip), rank)
    }

    #[inline]
    fn nearest_skipping<K: Ord>(
        &self,
        from: Pos,
        max_squares: i32,
        skip: Option<u8>,
        mut rank: impl FnMut(CombatantId, Pos) -> Option<K>,
    ) -> Option<(i32, K, CombatantId)> {
        let mut best: Option<(i32, K, CombatantId)> = None;
        // Skipped layers: the searcher's own and, for a layered search, the fallen.
        let skipped = |layer: u8| skip.is_some_and(|own| layer == own || layer == OUT_OF_FIGHT);
        let mut offer = |who: CombatantId, at: Pos, best: &mut Option<(i32, K, CombatantId)>| {
            let d = at.squares_to(from);
            if d > max_squares || best.as_ref().is_some_and(|b| b.0 < d) {
                return;
            }
            if let Some(k) = rank(who, at) {
                let better = match best {
                    None => true,
                    Some((bd, bk, bw)) => (d, &k, who) < (*bd, bk, *bw),
                };
                if better {
                    *best = Some((d, k, who));
                }
            }
        };
        let Some(cells) = &self.cells else {
            for e in &self.entries {
                if e.live && !skipped(e.layer) {
                    offer(e.who, e.square, &mut best);
                }
            }
            return best;
        };
        let (cx, cy) = cell_of(from);
        // Every square within `covered(r)` of `from` lies in the rings 0..=r.
        let margin = [
            from.x - (cx << CELL_SHIFT),
            ((cx + 1) << CELL_SHIFT) - 1 - from.x,
            from.y - (cy << CELL_SHIFT),
            ((cy + 1) << CELL_SHIFT) - 1 - from.y,
        ]
        .into_iter()
        .min()
        .unwrap_or(0);
        let mut seen_cells = 0usize;
        let mut probed = 0usize;
        let mut ring = 0i32;
        loop {
            let covered = ring.saturating_mul(CELL).saturating_add(margin);
            let ring_cells = if ring == 0 { 1 } else { 8 * ring as usize };
            // A cell probe costs about as much as reading a few entries.
            if probed + ring_cells > self.entries.len() / 4 + 8 {
                // Far and sparse: finish by reading every entry (the same order of preference).
                for e in &self.entries {
                    if e.live && !skipped(e.layer) {
                        offer(e.who, e.square, &mut best);
                    }
                }
                return best;
            }
            probed += ring_cells;
            let mut visit_cell = |x: i32, y: i32, best: &mut Option<(i32, K, CombatantId)>| {
                if let Some(&head) = cells.get(&key(x, y)) {
                    seen_cells += 1;
                    let mut at = head;
                    while at != NONE {
                        let e = self.entries[at as usize];
                        if !skipped(e.layer) {
                            offer(e.who, e.square, best);
                        }
                        at = e.next;
                    }
                }
            };
            // The ring's cells within the bounds (no cell outside holds anyone).
            let (lo, hi) = (self.bounds.lo, self.bounds.hi);
            let inside_y = |y: i32| lo.1 <= y && y <= hi.1;
            let inside_x = |x: i32| lo.0 <= x && x <= hi.0;
            if ring == 0 {
                if inside_x(cx) && inside_y(cy) {
                    visit_cell(cx, cy, &mut best);
                }
            } else {
                let (x0, x1) = ((cx - ring).max(lo.0), (cx + ring).min(hi.0));
                for y in [cy - ring, cy + ring] {
                    if inside_y(y) {
                        for x in x0..=x1 {
                            visit_cell(x, y, &mut best);
                        }
                    }
                }
                let (y0, y1) = ((cy - ring + 1).max(lo.1), (cy + ring - 1).min(hi.1));
                for x in [cx - ring, cx + ring] {
                    if inside_x(x) {
                        for y in y0..=y1 {
                            visit_cell(x, y, &mut best);
                        }
                    }
                }
            }
            let done = best.as_ref().is_some_and(|b| b.0 <= covered)
                || covered >= max_squares
                || seen_cells >= cells.len();
            if done {
                return best;
            }
            ring += 1;
        }
    }

    /// Which of the eight squares around `center` (in [`Direction::ALL`] order) hold nobody
    /// for whom `counts` holds.
    pub fn open_neighbours(
        &self,
        center: Pos,
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> [bool; 8] {
        let mut open = [true; 8];
        self.each_within(center, 1, |who, at| {
            if at != center {
                if let Some(k) = Direction::ALL.iter().position(|&d| center.step(d) == at) {
                    if open[k] && counts(who) {
                        open[k] = false;
                    }
                }
            }
        });
        open
    }
}

/// Combatants found by an area query: each once, in id order. Up to 32 are kept inline (no
/// allocation), more spill to the heap.
#[derive(Debug, Clone)]
pub struct Nearby {
    inline: [CombatantId; 32],
    len: usize,
    /// All of them, once more than fit inline were found (`spilled`).
    spill: Vec<CombatantId>,
    spilled: bool,
}

impl Default for Nearby {
    fn default() -> Self {
        Nearby {
            inline: [CombatantId(0); 32],
            len: 0,
            spill: Vec::new(),
            spilled: false,
        }
    }
}

impl Nearby {
    fn push(&mut self, who: CombatantId) {
        if self.spilled {
            self.spill.push(who);
        } else if self.len < self.inline.len() {
            self.inline[self.len] = who;
            self.len += 1;
        } else {
            self.spilled = true;
            self.spill.extend_from_slice(&self.inline);
            self.spill.push(who);
        }
    }

    /// Sorts, removes duplicates and keeps those for whom `counts` holds.
    fn settle(&mut self, counts: &mut impl FnMut(CombatantId) -> bool) {
        if !self.spilled {
            let found = &mut self.inline[..self.len];
            found.sort_unstable();
            let mut kept = 0;
            for i in 0..found.len() {
                let who = found[i];
                if (kept == 0 || found[kept - 1] != who) && counts(who) {
                    found[kept] = who;
                    kept += 1;
                }
            }
            self.len = kept;
        } else {
            self.spill.sort_unstable();
            self.spill.dedup();
            self.spill.retain(|&who| counts(who));
        }
    }

    /// The combatants, in id order.
    pub fn as_slice(&self) -> &[CombatantId] {
        if self.spilled {
            &self.spill
        } else {
            &self.inline[..self.len]
        }
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// True when none was found.
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    /// The combatants, in id order.
    pub fn iter(&self) -> impl Iterator<Item = CombatantId> + '_ {
        self.as_slice().iter().copied()
    }
}

impl IntoIterator for Nearby {
    type Item = CombatantId;
    type IntoIter = NearbyIter;
    fn into_iter(self) -> NearbyIter {
        NearbyIter {
            found: self,
            next: 0,
        }
    }
}

/// The owning iterator of [`Nearby`] (id order).
#[derive(Debug, Clone)]
pub struct NearbyIter {
    found: Nearby,
    next: usize,
}

impl Iterator for NearbyIter {
    type Item = CombatantId;
    fn next(&mut self) -> Option<CombatantId> {
        let who = self.found.as_slice().get(self.next).copied();
        self.next += 1;
        who
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A plain scan: who occupies which square (the reference the index must agree with).
    fn scan(squares: &[Vec<Pos>]) -> Vec<(CombatantId, Pos)> {
        squares
            .iter()
            .enumerate()
            .flat_map(|(i, sq)| sq.iter().map(move |&p| (CombatantId(i as u16), p)))
            .collect()
    }

    fn pos() -> impl Strategy<Value = Pos> {
        (-12i32..12, -12i32..12).prop_map(|(x, y)| Pos::new(x, y))
    }

    proptest! {
        /// After any moves, every query of the index equals the plain scan's answer.
        #[test]
        fn queries_match_a_plain_scan(
            start in proptest::collection::vec(pos(), 1..70),
            moves in proptest::collection::vec((0usize..70, pos()), 0..60),
            probes in proptest::collection::vec((pos(), 0i32..6), 1..12),
            far in any::<bool>(),
        ) {
            // Spread some pieces far apart (sparse battles take the fallback path).
            let start: Vec<Pos> = start
                .iter()
                .enumerate()
                .map(|(i, p)| if far && i % 3 == 0 { Pos::new(p.x * 40, p.y * 40) } else { *p })
                .collect();
            let mut index = Occupancy::new(start.iter().copied());
            // The same pieces in three layers (by id), for the layered search.
            let layer = |w: CombatantId| (w.0 % 3) as u8;
            let mut layered = Occupancy::with_layers(
                start.iter().enumerate().map(|(i, &p)| (p, layer(CombatantId(i as u16)))),
            );
            let mut squares: Vec<Vec<Pos>> = start.iter().map(|&p| vec![p]).collect();
            for (who, to) in moves {
                let who = who % start.len();
                index.move_to(CombatantId(who as u16), to);
                layered.move_to(CombatantId(who as u16), to);
                squares[who] = vec![to];
            }
            let all = scan(&squares);
            for (center, radius) in probes {
                // Lookups.
                let here: Vec<CombatantId> =
                    all.iter().filter(|(_, p)| *p == center).map(|(w, _)| *w).collect();
                prop_assert_eq!(index.any_at(center, |_| true), !here.is_empty());
                prop_assert_eq!(index.first_at(center, |_| true), here.iter().copied().min());
                let odd = |w: CombatantId| w.0 % 2 == 1;
                prop_assert_eq!(
                    index.first_at(center, odd),
                    here.iter().copied().filter(|&w| odd(w)).min()
                );
                // Areas.
                let mut near: Vec<CombatantId> = all
                    .iter()
                    .filter(|(_, p)| p.squares_to(center) <= radius)
                    .map(|(w, _)| *w)
                    .collect();
                near.sort();
                near.dedup();
                let found = index.within(center, radius, |_| true);
                prop_assert_eq!(found.as_slice(), &near[..]);
                // Filtered, also past the inline capacity (all but the odd ones rejected).
                let found = index.within(center, radius * 4, odd);
                let mut wide: Vec<CombatantId> = all
                    .iter()
                    .filter(|(w, p)| p.squares_to(center) <= radius * 4 && odd(*w))
                    .map(|(w, _)| *w)
                    .collect();
                wide.sort();
                wide.dedup();
                prop_assert_eq!(found.as_slice(), &wide[..]);
                prop_assert_eq!(index.any_within(center, radius * 4, |w, _| odd(w)), !wide.is_empty());
                let none = index.within(center, radius * 4, |_| false);
                prop_assert!(none.is_empty());
                // Nearest, with a rank that makes ties likely, and a distance limit.
                let rank = |w: CombatantId, _: Pos| (w.0 % 3 != 0).then_some(w.0 % 2);
                let expected = all
                    .iter()
                    .filter_map(|&(w, p)| rank(w, p).map(|k| (p.squares_to(center), k, w)))
                    .min();
                prop_assert_eq!(index.nearest(center, i32::MAX, rank), expected);
                let limited = expected.filter(|e| e.0 <= radius * 3);
                prop_assert_eq!(index.nearest(center, radius * 3, rank), limited);
                // Nearest outside a layer: the same as a rank that rejects the layer.
                for skip in 0..3u8 {
                    let outside = |w: CombatantId, p: Pos| {
                        if layer(w) == skip { None } else { rank(w, p) }
                    };
                    let expected = all
                        .iter()
                        .filter_map(|&(w, p)| outside(w, p).map(|k| (p.squares_to(center), k, w)))
                        .min();
                    prop_assert_eq!(layered.nearest_outside(center, i32::MAX, skip, rank), expected);
                    prop_assert_eq!(
                        layered.nearest_outside(center, radius * 3, skip, rank),
                        expected.filter(|e| e.0 <= radius * 3)
                    );
                    prop_assert_eq!(layered.nearest(center, i32::MAX, outside), expected);
                }
                // Neighbours.
                let mut open = [true; 8];
                for (k, d) in Direction::ALL.into_iter().enumerate() {
                    open[k] = !all.iter().any(|(_, p)| *p == center.step(d));
                }
                prop_assert_eq!(index.open_neighbours(center, |_| true), open);
            }
        }
    }
}
