//! The occupancy index: which combatants occupy which squares, kept up to date on every move,
//! so that "who stands here", "who is within 2 squares" and "the nearest foe" cost the same in a
//! battle of 12 and of 500.
//!
//! A small fight (up to [`LINEAR_LIMIT`] occupied squares) is answered by reading a compact
//! list of occupied squares, which is faster than any index at that size. A larger one cuts the
//! grid into cells of [`CELL`] × [`CELL`] squares. Each cell has one chain of *entries* (one
//! per occupied square of each combatant) per *layer* (a ruleset's side, or [`OUT_OF_FIGHT`]),
//! so a search for foes walks foes only. The chains are doubly linked, so a move out of a cell
//! unlinks in constant time. Cells live in a dense array over the occupied rectangle (a probe
//! is a bounds check and a load); a battle spread too wide for that numbers its cells through a
//! hash map instead. A lookup reads one cell's chains; an area query reads the cells the area
//! overlaps (or every entry, when that is fewer); the nearest-combatant search expands rings of
//! cells outward from the searcher and stops as soon as no unexplored square can be nearer than
//! the best found; a search that would probe too many cells reads instead every entry of the
//! layers it searches (each layer's entries are chained, as its *roll*). Each layer keeps the
//! rectangle of cells it has occupied (grow-only): both kinds of query read only cells inside
//! the rectangles of the layers they search, so the search for a distant foe line starts at
//! the ring where that line begins.
//!
//! The index knows squares and ids only. Whether an occupant *blocks*, *stands* or is a *foe*
//! is the ruleset's to say (see [`crate::Board`]); queries take a filter. Results never depend
//! on the order of a cell's chains (which reflects the history of moves): area queries are
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

/// At most this many layers have chains of their own (see [`Cells::layers`]).
const SLOTS: usize = 64;

/// The dense array of cells may have up to this many cells, plus [`DENSE_PER_ENTRY`] per entry;
/// a battle spread wider numbers its cells through a hash map.
const DENSE_BASE: i64 = 1024;
/// See [`DENSE_BASE`].
const DENSE_PER_ENTRY: i64 = 16;
/// Cells of room left around the occupied rectangle when the dense array is built, so that
/// moves seldom leave it (leaving it rebuilds the index).
const DENSE_MARGIN: i32 = 2;
/// A hash-numbered index is rebuilt (dropping its empty cells) once it numbers more than this
/// many cells per entry, plus [`SPARSE_BASE`]: its memory stays bounded however far pieces wander.
const SPARSE_PER_ENTRY: usize = 4;
/// See [`SPARSE_PER_ENTRY`].
const SPARSE_BASE: usize = 64;

/// The cell holding a square (floor division, so negative coordinates work).
fn cell_of(square: Pos) -> (i32, i32) {
    (square.x >> CELL_SHIFT, square.y >> CELL_SHIFT)
}

/// A cell's key in the map.
fn key(cx: i32, cy: i32) -> u64 {
    (u64::from(cx as u32) << 32) | u64::from(cy as u32)
}

/// Which layers a query reads.
#[derive(Debug, Clone, Copy)]
enum Layers {
    /// Every layer (lookups, plain area queries and searches).
    Every,
    /// All but this one (the searcher's side) and [`OUT_OF_FIGHT`] (see
    /// [`Occupancy::nearest_outside`]).
    Outside(u8),
    /// These two only (see [`Occupancy::within_inside`]; the same layer twice for one).
    Inside(u8, u8),
}

/// Is `layer` skipped by a query of the layers `skip` (see [`Layers`])?
#[inline]
fn skipped(skip: Layers, layer: u8) -> bool {
    match skip {
        Layers::Every => false,
        Layers::Outside(own) => layer == own || layer == OUT_OF_FIGHT,
        Layers::Inside(a, b) => layer != a && layer != b,
    }
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
    /// not, and is in no chain).
    live: bool,
    /// The next and previous entries of the same chain, or [`NONE`].
    next: u32,
    prev: u32,
    /// While linked: the place in [`Cells::heads`] of its chain's first entry.
    chain: u32,
    /// While live: the next and previous entries of its layer's roll (see
    /// [`Occupancy::rolls`]), or [`NONE`].
    roll_next: u32,
    roll_prev: u32,
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
    /// The cells; `None` while the fight is small enough to read `entries`.
    cells: Option<Cells>,
    entries: Vec<Entry>,
    slots: Vec<Slot>,
    /// Each layer's live entries, in no particular order, as a chain through the entries (the
    /// layer and its first entry): a search that reads every entry reads only the layers it
    /// does not skip. Moving a piece between layers relinks it; nothing is allocated after
    /// the first piece of a layer appears.
    rolls: Vec<(u8, u32)>,
}

/// The chains of every cell, per layer.
#[derive(Debug, Clone)]
struct Cells {
    /// The layers with a chain in every cell: layer `layers[k]`'s chain in cell number `c`
    /// starts at `heads[c * layers.len() + k]` (a new layer rebuilds the index). At most
    /// [`SLOTS`]; once full, further layers share the last slot's chains.
    layers: Vec<u8>,
    heads: Vec<u32>,
    /// Per cell number, a bit per slot whose chain is not empty: a probe of a cell with
    /// nothing in the walked slots is one load.
    occupied: Vec<u64>,
    grid: Grid,
    /// Cells linked since the index was built span at least this rectangle (grow-only, so
    /// never too small): searches skip cells outside without probing them.
    bounds: CellBounds,
    /// The same per slot: a search for foes starts at the ring of cells where the foes' own
    /// rectangle begins, and an area query away from every foe probes nothing.
    boxes: Vec<CellBounds>,
}

/// How cells are numbered.
#[derive(Debug, Clone)]
enum Grid {
    /// Cells `lo.0..lo.0 + width` × `lo.1..lo.1 + height`, numbered row by row (a piece that
    /// moves outside rebuilds the index).
    Dense {
        lo: (i32, i32),
        width: i32,
        height: i32,
    },
    /// Cell key → cell number, handed out as cells are first used (a battle spread too wide
    /// for an array).
    Sparse(HashMap<u64, u32, BuildHasherDefault<CellHasher>>),
}

impl Cells {
    /// The number of cell `(cx, cy)`, if it has one.
    #[inline]
    fn number(&self, cx: i32, cy: i32) -> Option<usize> {
        match &self.grid {
            Grid::Dense { lo, width, height } => {
                let (x, y) = (
                    i64::from(cx) - i64::from(lo.0),
                    i64::from(cy) - i64::from(lo.1),
                );
                (0 <= x && x < i64::from(*width) && 0 <= y && y < i64::from(*height))
                    .then(|| (y * i64::from(*width) + x) as usize)
            }
            Grid::Sparse(map) => map.get(&key(cx, cy)).map(|&c| c as usize),
        }
    }

    /// [`Cells::number`] of a cell inside the bounds (every such cell is in a dense array).
    #[inline(always)]
    fn number_inside(&self, cx: i32, cy: i32) -> Option<usize> {
        match &self.grid {
            Grid::Dense { lo, width, .. } => {
                debug_assert!(self.number(cx, cy).is_some(), "a cell inside the bounds");
                Some(((cy - lo.1) * width + (cx - lo.0)) as usize)
            }
            Grid::Sparse(map) => map.get(&key(cx, cy)).map(|&c| c as usize),
        }
    }

    /// The slot of `layer`'s chains (see [`Cells::layers`]), if it has one.
    #[inline]
    fn slot(&self, layer: u8) -> Option<usize> {
        match self.layers.iter().position(|&l| l == layer) {
            None if self.layers.len() == SLOTS => Some(SLOTS - 1),
            found => found,
        }
    }

    /// The slots a query of the layers `skip` walks (a bit per slot; see [`skipped`]).
    #[inline]
    fn walked(&self, skip: Layers) -> u64 {
        match skip {
            // Every slot (a lookup or an area query of everyone: no loop).
            Layers::Every => {
                return u64::MAX
                    .checked_shr(SLOTS as u32 - self.layers.len() as u32)
                    .unwrap_or(0)
            }
            // The slots of the two layers (a layer with no slot has no entry in any cell).
            Layers::Inside(a, b) => {
                let bit = |layer: u8| self.slot(layer).map_or(0, |k| 1u64 << k);
                return bit(a) | bit(b);
            }
            Layers::Outside(_) => {}
        }
        let mut mask = 0u64;
        for (k, &layer) in self.layers.iter().enumerate() {
            // The last slot of a full set also holds the layers that found no slot of their own.
            if !skipped(skip, layer) || k == SLOTS - 1 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// The rectangle of cells that may hold someone in the slots `walked` (see
    /// [`Cells::walked`]; every slot when nothing is skipped).
    #[inline]
    fn searched(&self, skip: Layers, walked: u64) -> CellBounds {
        if matches!(skip, Layers::Every) {
            return self.bounds;
        }
        let mut b = CellBounds::default();
        let mut slots = walked;
        while slots != 0 {
            b.union(self.boxes[slots.trailing_zeros() as usize]);
            slots &= slots - 1;
        }
        b
    }

    /// The cells overlapping the squares within `radius` of `center`, clipped to `b`
    /// (inclusive corners), or `None` when none is inside.
    fn area(&self, center: Pos, radius: i32, b: &CellBounds) -> Option<((i32, i32), (i32, i32))> {
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
        let lo = (lo.0.max(b.lo.0), lo.1.max(b.lo.1));
        let hi = (hi.0.min(b.hi.0), hi.1.min(b.hi.1));
        (lo.0 <= hi.0 && lo.1 <= hi.1).then_some((lo, hi))
    }
}

/// A rectangle of cells (inclusive), grown to hold every cell linked.
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

impl CellBounds {
    fn include(&mut self, (cx, cy): (i32, i32)) {
        self.lo = (self.lo.0.min(cx), self.lo.1.min(cy));
        self.hi = (self.hi.0.max(cx), self.hi.1.max(cy));
    }

    /// Grows to hold `other` as well.
    #[inline]
    fn union(&mut self, other: CellBounds) {
        self.lo = (self.lo.0.min(other.lo.0), self.lo.1.min(other.lo.1));
        self.hi = (self.hi.0.max(other.hi.0), self.hi.1.max(other.hi.1));
    }

    /// Holds no cell.
    #[inline]
    fn is_empty(&self) -> bool {
        self.lo.0 > self.hi.0 || self.lo.1 > self.hi.1
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
                prev: NONE,
                chain: NONE,
                roll_next: NONE,
                roll_prev: NONE,
            });
            index.enrol(i as u32);
        }
        // Pieces that fall move to OUT_OF_FIGHT: its roll is there from the start.
        if !index.rolls.iter().any(|r| r.0 == OUT_OF_FIGHT) {
            index.rolls.push((OUT_OF_FIGHT, NONE));
        }
        index.grow_cells();
        index
    }

    /// Builds the cells once the fight outgrows the list.
    fn grow_cells(&mut self) {
        if self.cells.is_none() && self.entries.len() > LINEAR_LIMIT {
            self.rebuild();
        }
    }

    /// Builds the cells afresh from the live entries: a dense array over their rectangle
    /// (with room around it) when that is small enough, else hash-numbered cells.
    fn rebuild(&mut self) {
        let mut layers: Vec<u8> = Vec::new();
        let mut bounds = CellBounds::default();
        for e in self.entries.iter().filter(|e| e.live) {
            if !layers.contains(&e.layer) && layers.len() < SLOTS {
                layers.push(e.layer);
            }
            bounds.include(cell_of(e.square));
        }
        // Pieces that fall move to OUT_OF_FIGHT: its chains are there from the start, so that
        // the first to fall does not rebuild the index.
        if !layers.is_empty() && !layers.contains(&OUT_OF_FIGHT) && layers.len() < SLOTS {
            layers.push(OUT_OF_FIGHT);
        }
        let size =
            |lo: i32, hi: i32| i64::from(hi) - i64::from(lo) + 1 + 2 * i64::from(DENSE_MARGIN);
        let (width, height) = (
            size(bounds.lo.0, bounds.hi.0),
            size(bounds.lo.1, bounds.hi.1),
        );
        let dense = !layers.is_empty()
            && width * height <= DENSE_BASE + DENSE_PER_ENTRY * self.entries.len() as i64;
        let (grid, cells) = if dense {
            let lo = (bounds.lo.0 - DENSE_MARGIN, bounds.lo.1 - DENSE_MARGIN);
            let grid = Grid::Dense {
                lo,
                width: width as i32,
                height: height as i32,
            };
            (grid, (width * height) as usize)
        } else {
            (Grid::Sparse(HashMap::default()), 0)
        };
        self.cells = Some(Cells {
            heads: vec![NONE; cells * layers.len()],
            occupied: vec![0; cells],
            boxes: vec![CellBounds::default(); layers.len()],
            layers,
            grid,
            bounds: CellBounds::default(),
        });
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
    #[inline]
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
        for e in slot.first..slot.first + slot.count {
            if self.entries[e as usize].layer == layer {
                continue;
            }
            let live = self.entries[e as usize].live;
            let linked = self.cells.is_some() && live;
            if linked {
                self.unlink(e);
            }
            if live {
                self.unenrol(e);
            }
            self.entries[e as usize].layer = layer;
            if live {
                self.enrol(e);
            }
            if linked {
                self.link(e);
            }
        }
    }

    /// Moves a one-square piece to `to` (a larger piece: see [`Occupancy::set_squares`]).
    pub fn move_to(&mut self, who: CombatantId, to: Pos) {
        let slot = self.slots[who.index()];
        debug_assert_eq!(slot.count, 1, "move_to is for one-square pieces");
        let e = slot.first;
        let from = self.entries[e as usize].square;
        if from == to {
            return;
        }
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
            if self.entries[e as usize].live {
                self.unenrol(e);
            }
            self.entries[e as usize].live = false;
        }
        let blank = Entry {
            square: Pos::new(0, 0),
            who,
            layer,
            live: false,
            next: NONE,
            prev: NONE,
            chain: NONE,
            roll_next: NONE,
            roll_prev: NONE,
        };
        let first = if squares.len() as u32 <= slot.count {
            slot.first
        } else {
            // The old entries stay unlinked; the piece gets a fresh run at the end.
            let first = self.entries.len() as u32;
            self.entries.extend(squares.iter().map(|_| blank));
            first
        };
        for (k, &square) in squares.iter().enumerate() {
            let e = first + k as u32;
            self.entries[e as usize] = Entry {
                square,
                live: true,
                ..blank
            };
            self.enrol(e);
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

    /// Puts live entry `e` at the head of its layer's roll (see [`Occupancy::rolls`]).
    fn enrol(&mut self, e: u32) {
        let layer = self.entries[e as usize].layer;
        let r = match self.rolls.iter().position(|r| r.0 == layer) {
            Some(r) => r,
            None => {
                self.rolls.push((layer, NONE));
                self.rolls.len() - 1
            }
        };
        let next = self.rolls[r].1;
        self.rolls[r].1 = e;
        if next != NONE {
            self.entries[next as usize].roll_prev = e;
        }
        let entry = &mut self.entries[e as usize];
        entry.roll_next = next;
        entry.roll_prev = NONE;
    }

    /// Takes enrolled entry `e` out of its layer's roll.
    fn unenrol(&mut self, e: u32) {
        let Entry {
            layer,
            roll_next: next,
            roll_prev: prev,
            ..
        } = self.entries[e as usize];
        if prev == NONE {
            if let Some(r) = self.rolls.iter_mut().find(|r| r.0 == layer) {
                r.1 = next;
            }
        } else {
            self.entries[prev as usize].roll_next = next;
        }
        if next != NONE {
            self.entries[next as usize].roll_prev = prev;
        }
    }

    /// Puts live entry `e` at the head of its layer's chain in its square's cell (rebuilding
    /// the index instead, which links every live entry, when the cell or layer has no chain).
    fn link(&mut self, e: u32) {
        let Some(cells) = self.cells.as_mut() else {
            return;
        };
        let Entry { square, layer, .. } = self.entries[e as usize];
        let Some(k) = cells.slot(layer) else {
            return self.rebuild();
        };
        let (cx, cy) = cell_of(square);
        let n = cells.layers.len();
        let c = match cells.number(cx, cy) {
            Some(c) => c,
            None => match &mut cells.grid {
                Grid::Dense { .. } => return self.rebuild(),
                Grid::Sparse(map) => {
                    if map.len() >= SPARSE_BASE + SPARSE_PER_ENTRY * self.entries.len() {
                        return self.rebuild();
                    }
                    let c = map.len();
                    map.insert(key(cx, cy), c as u32);
                    cells.heads.resize(cells.heads.len() + n, NONE);
                    cells.occupied.push(0);
                    c
                }
            },
        };
        cells.bounds.include((cx, cy));
        cells.boxes[k].include((cx, cy));
        let chain = c * n + k;
        let next = cells.heads[chain];
        cells.heads[chain] = e;
        cells.occupied[c] |= 1 << k;
        if next != NONE {
            self.entries[next as usize].prev = e;
        }
        let entry = &mut self.entries[e as usize];
        entry.next = next;
        entry.prev = NONE;
        entry.chain = chain as u32;
    }

    /// Takes linked entry `e` out of its chain.
    fn unlink(&mut self, e: u32) {
        let Some(cells) = self.cells.as_mut() else {
            return;
        };
        let Entry {
            next, prev, chain, ..
        } = self.entries[e as usize];
        if prev == NONE {
            cells.heads[chain as usize] = next;
            if next == NONE {
                // The chain is empty now.
                let n = cells.layers.len() as u32;
                cells.occupied[(chain / n) as usize] &= !(1 << (chain % n));
            }
        } else {
            self.entries[prev as usize].next = next;
        }
        if next != NONE {
            self.entries[next as usize].prev = prev;
        }
    }

    /// Calls `visit` with each entry of cell number `c` in the slots `walked` (see
    /// [`Cells::walked`]) outside the layers `skip` skips, until it returns true; returns
    /// whether it did.
    #[inline(always)]
    fn scan_cell(
        &self,
        cells: &Cells,
        c: usize,
        walked: u64,
        skip: Layers,
        mut visit: impl FnMut(&Entry) -> bool,
    ) -> bool {
        // One test of the loop below (no separate test for an empty cell: the loop's own
        // exit is the only branch a probe of an empty cell takes).
        let mut slots = walked & cells.occupied[c];
        let base = c * cells.layers.len();
        // Below a full set of slots each slot holds one layer, so the slots walked hold only
        // the layers wanted: their entries need no test of their own.
        let shared = cells.layers.len() == SLOTS;
        while slots != 0 {
            let mut at = cells.heads[base + slots.trailing_zeros() as usize];
            slots &= slots - 1;
            while at != NONE {
                let e = &self.entries[at as usize];
                if (!shared || !skipped(skip, e.layer)) && visit(e) {
                    return true;
                }
                at = e.next;
            }
        }
        false
    }

    /// Calls `visit` with each entry within `radius` of `center` outside the layers `skip`
    /// skips, until it returns true; returns whether it did. Reads the cells the area overlaps,
    /// or every entry when that is fewer.
    #[inline]
    fn scan_within(
        &self,
        center: Pos,
        radius: i32,
        skip: Layers,
        mut visit: impl FnMut(&Entry) -> bool,
    ) -> bool {
        let radius = radius.max(0);
        let near = |p: Pos| p.squares_to(center) <= radius;
        let area = self.cells.as_ref().map(|c| {
            let walked = c.walked(skip);
            (c, walked, c.area(center, radius, &c.searched(skip, walked)))
        });
        let every_entry = match area {
            None => true,
            Some((_, _, None)) => return false,
            Some((cells, _, Some((lo, hi)))) => {
                let probes = (i64::from(hi.0 - lo.0) + 1) * (i64::from(hi.1 - lo.1) + 1);
                // A wide area: reading the entries is cheaper than probing cells.
                probes * cells.layers.len() as i64 > self.entries.len() as i64
            }
        };
        if every_entry {
            return self
                .entries
                .iter()
                .any(|e| e.live && !skipped(skip, e.layer) && near(e.square) && visit(e));
        }
        let Some((cells, walked, Some((lo, hi)))) = area else {
            return false;
        };
        // Half-open ranges (`hi` is a cell of the bounds, so `hi + 1` cannot overflow): an
        // inclusive range's loop takes an extra, poorly predicted test per row and cell.
        for cy in lo.1..hi.1 + 1 {
            for cx in lo.0..hi.0 + 1 {
                let Some(c) = cells.number_inside(cx, cy) else {
                    continue;
                };
                if self.scan_cell(cells, c, walked, skip, |e| near(e.square) && visit(e)) {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `visit` with every live entry outside the layers `skip` skips.
    #[inline]
    fn each_entry(&self, skip: Layers, mut visit: impl FnMut(&Entry)) {
        for e in &self.entries {
            if e.live && !skipped(skip, e.layer) {
                visit(e);
            }
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
        let Some(c) = cells.number(cx, cy) else {
            return false;
        };
        let walked = cells.walked(Layers::Every);
        self.scan_cell(cells, c, walked, Layers::Every, |e| {
            e.square == square && counts(e.who)
        })
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
        self.scan_within(center, radius, Layers::Every, |e| {
            visit(e.who, e.square);
            false
        });
    }

    /// [`Occupancy::each_within`] outside layer `skip` and outside [`OUT_OF_FIGHT`] (see
    /// [`Occupancy::nearest_outside`]): the searcher's friends and the fallen are not visited.
    pub fn each_within_outside(
        &self,
        center: Pos,
        radius: i32,
        skip: u8,
        mut visit: impl FnMut(CombatantId, Pos),
    ) {
        self.scan_within(center, radius, Layers::Outside(skip), |e| {
            visit(e.who, e.square);
            false
        });
    }

    /// Is anyone with a square within `radius` of `center` someone for whom `counts` holds?
    /// Stops at the first.
    pub fn any_within(
        &self,
        center: Pos,
        radius: i32,
        mut counts: impl FnMut(CombatantId, Pos) -> bool,
    ) -> bool {
        self.scan_within(center, radius, Layers::Every, |e| counts(e.who, e.square))
    }

    /// [`Occupancy::any_within`] outside layer `skip` and outside [`OUT_OF_FIGHT`] (see
    /// [`Occupancy::nearest_outside`]).
    pub fn any_within_outside(
        &self,
        center: Pos,
        radius: i32,
        skip: u8,
        mut counts: impl FnMut(CombatantId, Pos) -> bool,
    ) -> bool {
        self.scan_within(center, radius, Layers::Outside(skip), |e| {
            counts(e.who, e.square)
        })
    }

    /// [`Occupancy::any_within`] inside the layers `inside` only (two of them; the same twice
    /// for one), as [`Occupancy::within_inside`]: the other layers' chains are not walked.
    pub fn any_within_inside(
        &self,
        center: Pos,
        radius: i32,
        inside: [u8; 2],
        mut counts: impl FnMut(CombatantId, Pos) -> bool,
    ) -> bool {
        self.scan_within(center, radius, Layers::Inside(inside[0], inside[1]), |e| {
            counts(e.who, e.square)
        })
    }

    /// The combatants with a square within `radius` of `center` for whom `counts` holds,
    /// each once, in id order. `counts` is asked about each occupied square in the area (a
    /// piece of several squares may be asked about more than once), in no particular order,
    /// before any sorting: only those it keeps are sorted (usually none or a few).
    pub fn within(
        &self,
        center: Pos,
        radius: i32,
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> Nearby {
        let mut found = Nearby::default();
        self.each_within(center, radius, |who, _| {
            if counts(who) {
                found.push(who);
            }
        });
        found.settle();
        found
    }

    /// [`Occupancy::within`] inside the layers `inside` only (two of them; the same twice for
    /// one): the other layers' chains are not walked and `counts` is never asked about their
    /// pieces. A query for friends in need reads its side's layer and [`OUT_OF_FIGHT`] only.
    pub fn within_inside(
        &self,
        center: Pos,
        radius: i32,
        inside: [u8; 2],
        mut counts: impl FnMut(CombatantId) -> bool,
    ) -> Nearby {
        let mut found = Nearby::default();
        self.scan_within(center, radius, Layers::Inside(inside[0], inside[1]), |e| {
            if counts(e.who) {
                found.push(e.who);
            }
            false
        });
        found.settle();
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
        self.nearest_skipping(from, max_squares, Layers::Every, rank)
    }

    /// [`Occupancy::nearest`] among the combatants outside layer `skip` (see
    /// [`Occupancy::with_layers`]) and outside [`OUT_OF_FIGHT`]: `rank` is never asked about
    /// those, and their chains are not walked, so a search for the nearest foe does not pay for
    /// the friends around the searcher or the fallen.
    pub fn nearest_outside<K: Ord>(
        &self,
        from: Pos,
        max_squares: i32,
        skip: u8,
        rank: impl FnMut(CombatantId, Pos) -> Option<K>,
    ) -> Option<(i32, K, CombatantId)> {
        self.nearest_skipping(from, max_squares, Layers::Outside(skip), rank)
    }

    #[inline]
    fn nearest_skipping<K: Ord>(
        &self,
        from: Pos,
        max_squares: i32,
        skip: Layers,
        mut rank: impl FnMut(CombatantId, Pos) -> Option<K>,
    ) -> Option<(i32, K, CombatantId)> {
        let mut best: Option<(i32, K, CombatantId)> = None;
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
            self.each_entry(skip, |e| offer(e.who, e.square, &mut best));
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
        let walked = cells.walked(skip);
        // Only cells in the rectangle of the layers searched can hold a candidate.
        let searched = cells.searched(skip, walked);
        if searched.is_empty() {
            return best;
        }
        let (lo, hi) = (searched.lo, searched.hi);
        // Once the rings reach this far, every cell inside the rectangle has been read.
        let last_ring = [cx - lo.0, hi.0 - cx, cy - lo.1, hi.1 - cy]
            .into_iter()
            .max()
            .unwrap_or(0);
        // A probe costs about as much as reading a few entries: past this many, read those of
        // the layers searched.
        let budget = self.entries.len() / 4 + 8;
        let mut probed = 0usize;
        // The rings nearer than the rectangle hold nobody searched: start at its first.
        let mut ring = [lo.0 - cx, cx - hi.0, lo.1 - cy, cy - hi.1]
            .into_iter()
            .max()
            .unwrap_or(0)
            .max(0);
        loop {
            let covered = ring.saturating_mul(CELL).saturating_add(margin);
            // The ring's cells within the rectangle (no cell outside holds anyone searched).
            let inside_y = |y: i32| lo.1 <= y && y <= hi.1;
            let inside_x = |x: i32| lo.0 <= x && x <= hi.0;
            let (x0, x1) = ((cx - ring).max(lo.0), (cx + ring).min(hi.0));
            let (y0, y1) = ((cy - ring + 1).max(lo.1), (cy + ring - 1).min(hi.1));
            // The ring as runs of cells (first cell, step, length): its top and bottom rows and
            // its left and right columns between them.
            let mut runs = [((0, 0), (0, 0), 0); 4];
            let mut n_runs = 0;
            let mut ring_cells = 0usize;
            let mut run = |first: (i32, i32), step: (i32, i32), len: i32| {
                if len > 0 {
                    runs[n_runs] = (first, step, len);
                    n_runs += 1;
                    ring_cells += len as usize;
                }
            };
            if ring == 0 {
                if inside_x(cx) && inside_y(cy) {
                    run((cx, cy), (1, 0), 1);
                }
            } else {
                for y in [cy - ring, cy + ring] {
                    if inside_y(y) {
                        run((x0, y), (1, 0), x1 - x0 + 1);
                    }
                }
                for x in [cx - ring, cx + ring] {
                    if inside_x(x) {
                        run((x, y0), (0, 1), y1 - y0 + 1);
                    }
                }
            }
            if probed + ring_cells > budget {
                // Far and sparse: finish by reading every entry of the layers searched (the same
                // order of preference).
                for &(layer, first) in &self.rolls {
                    if !skipped(skip, layer) {
                        let mut at = first;
                        while at != NONE {
                            let e = &self.entries[at as usize];
                            offer(e.who, e.square, &mut best);
                            at = e.roll_next;
                        }
                    }
                }
                return best;
            }
            probed += ring_cells;
            for &((mut x, mut y), (dx, dy), len) in &runs[..n_runs] {
                for _ in 0..len {
                    if let Some(c) = cells.number_inside(x, y) {
                        self.scan_cell(cells, c, walked, skip, |e| {
                            offer(e.who, e.square, &mut best);
                            false
                        });
                    }
                    x += dx;
                    y += dy;
                }
            }
            let done = best.as_ref().is_some_and(|b| b.0 <= covered)
                || covered >= max_squares
                || ring >= last_ring;
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

    /// Sorts and removes duplicates (a piece of several squares is found once per square).
    fn settle(&mut self) {
        if !self.spilled {
            let found = &mut self.inline[..self.len];
            found.sort_unstable();
            let mut kept = 0;
            for i in 0..found.len() {
                let who = found[i];
                if kept == 0 || found[kept - 1] != who {
                    found[kept] = who;
                    kept += 1;
                }
            }
            self.len = kept;
        } else {
            self.spill.sort_unstable();
            self.spill.dedup();
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
impl Occupancy {
    /// Panics unless each cell's bits of [`Cells::occupied`] say exactly which of its chains
    /// hold someone, each layer's roll chains exactly its live entries, and each slot's
    /// rectangle holds the cells of its live entries.
    fn assert_masks(&self) {
        // Every live entry is in its layer's roll, at its rank, and nothing else is.
        let mut listed = 0;
        for &(layer, first) in &self.rolls {
            let (mut at, mut prev) = (first, NONE);
            while at != NONE {
                let entry = &self.entries[at as usize];
                assert!(entry.live && entry.layer == layer && entry.roll_prev == prev);
                listed += 1;
                (prev, at) = (at, entry.roll_next);
            }
        }
        assert_eq!(listed, self.entries.iter().filter(|e| e.live).count());
        let Some(cells) = &self.cells else {
            return;
        };
        let n = cells.layers.len();
        assert_eq!(cells.heads.len(), cells.occupied.len() * n);
        assert_eq!(cells.boxes.len(), n);
        // Every live entry's cell lies in its slot's rectangle (searches skip cells outside).
        for e in self.entries.iter().filter(|e| e.live) {
            let k = cells
                .slot(e.layer)
                .expect("a live entry's layer has a slot");
            let (b, (cx, cy)) = (cells.boxes[k], cell_of(e.square));
            assert!(b.lo.0 <= cx && cx <= b.hi.0 && b.lo.1 <= cy && cy <= b.hi.1);
        }
        for (c, &bits) in cells.occupied.iter().enumerate() {
            for k in 0..n {
                let linked = cells.heads[c * n + k] != NONE;
                assert_eq!(bits & (1 << k) != 0, linked, "cell {c}, slot {k}");
            }
        }
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

    /// Checks that `each_within_outside` visits exactly the squares of the plain scan `all`
    /// within `radius` of `center` whose occupants `counted` keeps (those outside layer `skip`
    /// and still in the fight); returns them, sorted.
    fn within_outside_matches_scan(
        index: &Occupancy,
        all: &[(CombatantId, Pos)],
        center: Pos,
        radius: i32,
        skip: u8,
        counted: impl Fn(CombatantId) -> bool,
    ) -> Result<Vec<(CombatantId, Pos)>, TestCaseError> {
        let mut seen: Vec<(CombatantId, Pos)> = Vec::new();
        index.each_within_outside(center, radius, skip, |w, p| seen.push((w, p)));
        seen.sort();
        let mut expected: Vec<(CombatantId, Pos)> = all
            .iter()
            .copied()
            .filter(|&(w, p)| counted(w) && p.squares_to(center) <= radius)
            .collect();
        expected.sort();
        prop_assert_eq!(&seen, &expected);
        Ok(expected)
    }

    fn pos() -> impl Strategy<Value = Pos> {
        (-12i32..12, -12i32..12).prop_map(|(x, y)| Pos::new(x, y))
    }

    /// Crowded rings and areas in a dense array of cells (dozens of occupied cells in one ring
    /// or area): the nearest search and the area queries still read every one of them.
    #[test]
    fn crowded_rings_are_read_whole() {
        // One piece per cell around an empty hole of 5 × 5 cells; ring 3 holds 24 of them.
        let mut start = Vec::new();
        for cy in -7..=7i32 {
            for cx in -7..=7i32 {
                if cx.abs() > 2 || cy.abs() > 2 {
                    start.push(Pos::new(CELL * cx + 1, CELL * cy + 2));
                }
            }
        }
        let layer = |i: usize| (i % 2) as u8;
        let index = Occupancy::with_layers(start.iter().enumerate().map(|(i, &p)| (p, layer(i))));
        let one_layer = Occupancy::new(start.iter().copied());
        for index in [&index, &one_layer] {
            assert!(matches!(
                index.cells.as_ref().map(|c| &c.grid),
                Some(Grid::Dense { .. })
            ));
        }
        let all: Vec<(CombatantId, Pos)> = start
            .iter()
            .enumerate()
            .map(|(i, &p)| (CombatantId(i as u16), p))
            .collect();
        // The highest id among the nearest: every candidate of the ring must be offered.
        let rank = |w: CombatantId, _: Pos| Some(u16::MAX - w.0);
        for from in [Pos::new(0, 0), Pos::new(2, 3), Pos::new(-1, 1)] {
            let expected = all
                .iter()
                .filter_map(|&(w, p)| rank(w, p).map(|k| (p.squares_to(from), k, w)))
                .min();
            assert_eq!(index.nearest(from, i32::MAX, rank), expected);
            let outside = all
                .iter()
                .filter(|&&(w, _)| layer(w.index()) != 0)
                .filter_map(|&(w, p)| rank(w, p).map(|k| (p.squares_to(from), k, w)))
                .min();
            assert_eq!(index.nearest_outside(from, i32::MAX, 0, rank), outside);
            // An area of 9 × 9 cells, most of them occupied (one layer and the fallen's: few
            // enough probes for the cells to be read, not every entry).
            let mut near: Vec<CombatantId> = all
                .iter()
                .filter(|(_, p)| p.squares_to(from) <= 4 * CELL)
                .map(|(w, _)| *w)
                .collect();
            near.sort();
            assert!(near.len() > 32, "past the inline capacity of `Nearby`");
            assert_eq!(
                one_layer.within(from, 4 * CELL, |_| true).as_slice(),
                &near[..]
            );
        }
    }

    proptest! {
        /// After any moves, every query of the index equals the plain scan's answer.
        #[test]
        fn queries_match_a_plain_scan(
            start in proptest::collection::vec(pos(), 1..70),
            moves in proptest::collection::vec((0usize..70, pos(), 0u8..5), 0..60),
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
            // Who is out of the fight (in the layered index's OUT_OF_FIGHT layer).
            let mut out = vec![false; start.len()];
            for (who, to, op) in moves {
                let who = who % start.len();
                let id = CombatantId(who as u16);
                if op == 0 {
                    // Falls, or stands back up.
                    out[who] = !out[who];
                    layered.set_layer(id, if out[who] { OUT_OF_FIGHT } else { layer(id) });
                    continue;
                }
                index.move_to(id, to);
                layered.move_to(id, to);
                squares[who] = vec![to];
            }
            let all = scan(&squares);
            index.assert_masks();
            layered.assert_masks();
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
                // Nearest outside a layer (and outside the fallen): the same as a rank that
                // rejects them; the layered index still answers unlayered queries whole.
                prop_assert_eq!(layered.nearest(center, i32::MAX, rank), index.nearest(center, i32::MAX, rank));
                prop_assert_eq!(
                    layered.within(center, radius, |_| true).as_slice().to_vec(),
                    index.within(center, radius, |_| true).as_slice().to_vec()
                );
                for skip in 0..3u8 {
                    let counted = |w: CombatantId| layer(w) != skip && !out[w.index()];
                    let outside = |w: CombatantId, p: Pos| {
                        if counted(w) { rank(w, p) } else { None }
                    };
                    let expected_seen = within_outside_matches_scan(
                        &layered, &all, center, radius, skip, counted,
                    )?;
                    prop_assert_eq!(
                        layered.any_within_outside(center, radius, skip, |w, _| odd(w)),
                        expected_seen.iter().any(|&(w, _)| odd(w))
                    );
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
                    // Inside one layer and the fallen's only (a query for friends in need).
                    let inside = |w: CombatantId| out[w.index()] || layer(w) == skip;
                    let mut kept: Vec<CombatantId> = all
                        .iter()
                        .filter(|&&(w, p)| inside(w) && p.squares_to(center) <= radius * 2 && odd(w))
                        .map(|&(w, _)| w)
                        .collect();
                    kept.sort();
                    let found = layered.within_inside(center, radius * 2, [skip, OUT_OF_FIGHT], odd);
                    prop_assert_eq!(found.as_slice(), &kept[..]);
                }
                // Neighbours.
                let mut open = [true; 8];
                for (k, d) in Direction::ALL.into_iter().enumerate() {
                    open[k] = !all.iter().any(|(_, p)| *p == center.step(d));
                }
                prop_assert_eq!(index.open_neighbours(center, |_| true), open);
            }
        }

        /// More layers than have chains of their own (they share the last slot), larger
        /// footprints and far moves (which rebuild the cells) still answer as a plain scan.
        #[test]
        fn many_layers_and_rebuilds_match_a_plain_scan(
            start in proptest::collection::vec(pos(), 70..120),
            changes in proptest::collection::vec((0usize..120, pos(), 0u8..4, 0u8..100), 0..40),
            probes in proptest::collection::vec((pos(), 0i32..6, 0usize..10), 1..8),
        ) {
            // Up to 90 layers: more than have slots of their own.
            let mut layers: Vec<u8> = (0..start.len()).map(|i| (i % 90) as u8).collect();
            let mut index = Occupancy::with_layers(start.iter().copied().zip(layers.iter().copied()));
            let mut squares: Vec<Vec<Pos>> = start.iter().map(|&p| vec![p]).collect();
            for (who, to, op, layer) in changes {
                let who = who % start.len();
                let id = CombatantId(who as u16);
                match op {
                    0 => {
                        index.set_layer(id, layer);
                        layers[who] = layer;
                    }
                    1 => {
                        // A far move: leaves any dense array of cells.
                        let to = Pos::new(to.x * 50, to.y * 50);
                        index.set_squares(id, &[to]);
                        squares[who] = vec![to];
                    }
                    2 => {
                        let two = [to, Pos::new(to.x + 1, to.y)];
                        index.set_squares(id, &two);
                        squares[who] = two.to_vec();
                    }
                    _ => {
                        index.set_squares(id, &[to]);
                        squares[who] = vec![to];
                    }
                }
            }
            let all = scan(&squares);
            index.assert_masks();
            let rank = |w: CombatantId, _: Pos| Some(w.0 % 3);
            for (center, radius, last) in probes {
                // Skip the layer of one of the last pieces (likely past the slots of their own).
                let skip = layers[layers.len() - 1 - last];
                let counted = |w: CombatantId| layers[w.index()] != skip && layers[w.index()] != OUT_OF_FIGHT;
                let expected = all
                    .iter()
                    .filter(|&&(w, _)| counted(w))
                    .filter_map(|&(w, p)| rank(w, p).map(|k| (p.squares_to(center), k, w)))
                    .min();
                prop_assert_eq!(index.nearest_outside(center, i32::MAX, skip, rank), expected);
                within_outside_matches_scan(&index, &all, center, radius, skip, counted)?;
                // Inside two layers (likely one of them past the slots of their own).
                let other = layers[last];
                let mut kept: Vec<CombatantId> = all
                    .iter()
                    .filter(|&&(w, p)| {
                        [skip, other].contains(&layers[w.index()]) && p.squares_to(center) <= radius
                    })
                    .map(|&(w, _)| w)
                    .collect();
                kept.sort();
                kept.dedup();
                let found = index.within_inside(center, radius, [skip, other], |_| true);
                prop_assert_eq!(found.as_slice(), &kept[..]);
                let mut near: Vec<CombatantId> = all
                    .iter()
                    .filter(|(_, p)| p.squares_to(center) <= radius)
                    .map(|(w, _)| *w)
                    .collect();
                near.sort();
                near.dedup();
                let found = index.within(center, radius, |_| true);
                prop_assert_eq!(found.as_slice(), &near[..]);
                prop_assert_eq!(
                    index.any_at(center, |_| true),
                    all.iter().any(|(_, p)| *p == center)
                );
            }
        }
    }
}
