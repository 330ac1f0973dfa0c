//! The map's obstacles and difficult terrain (the encounter's `[[obstacle]]` and
//! `[[difficult]]` tables). The seed names obstacles once, for stray shots (CEL-R7.3: the line
//! goes on "until it hits an obstacle"), and difficult terrain once, for Step (CEL-R9: "You can
//! only take a Step if your movement isn't hampered by difficult terrain or darkness"); a charge
//! needs a path nothing "hinders or blocks" (CEL-R11). An obstacle square is no square to stand
//! on (`State::space_free` refuses it), and a move goes around obstacles: a path on the 5-ft
//! grid (diagonals 5 ft, as fray measures every distance) no longer than the move's allowance,
//! passing through others' squares as every fray move does but never through an obstacle,
//! nor diagonally between two obstacles that touch at their corners. A map without obstacles
//! plays as before: every test here is asked only when the map has some. The GM changes the
//! map during the fight (`rule obstacle X Y …`, `rule difficult X Y …`, `rule clear X Y …`:
//! [`ruling`]). Lines of sight and effect across obstacles are `rules::line_of_effect`'s.

use crate::state::State;
use fray_core::event::Event;
use fray_core::intervention::Intervention;
use fray_core::protocol::Interrupt;
use fray_core::{CombatantId, Pos};

/// At most this many obstacle squares, and as many difficult ones, in one fight.
pub const MAX_SQUARES: usize = 4096;

/// The longest path searched, in squares (a run of four times a 60-ft speed is 48).
pub const MAX_PATH: i32 = 64;

/// The map's terrain: its obstacle squares and its difficult-terrain squares, each sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Terrain {
    obstacles: Vec<Pos>,
    difficult: Vec<Pos>,
}

/// A total order on squares for the sorted lists.
fn key(p: &Pos) -> (i32, i32) {
    (p.y, p.x)
}

impl Terrain {
    /// The terrain with these squares (each list sorted and deduplicated here).
    pub fn new(mut obstacles: Vec<Pos>, mut difficult: Vec<Pos>) -> Terrain {
        for list in [&mut obstacles, &mut difficult] {
            list.sort_unstable_by_key(key);
            list.dedup();
        }
        Terrain {
            obstacles,
            difficult,
        }
    }

    /// Has the map any obstacle? (Every path test is gated on it.)
    #[inline]
    pub fn has_obstacles(&self) -> bool {
        !self.obstacles.is_empty()
    }

    /// Has the map any difficult terrain?
    #[inline]
    pub fn has_difficult(&self) -> bool {
        !self.difficult.is_empty()
    }

    /// The obstacle squares, north to south, west to east.
    pub fn obstacles(&self) -> &[Pos] {
        &self.obstacles
    }

    /// The difficult-terrain squares, north to south, west to east.
    pub fn difficult(&self) -> &[Pos] {
        &self.difficult
    }

    /// Is `p` an obstacle square?
    #[inline]
    pub fn obstacle(&self, p: Pos) -> bool {
        self.obstacles.binary_search_by_key(&key(&p), key).is_ok()
    }

    /// Is `p` a difficult-terrain square?
    pub fn difficult_at(&self, p: Pos) -> bool {
        self.difficult.binary_search_by_key(&key(&p), key).is_ok()
    }

    /// Is any square of a space `side` across on `at` an obstacle?
    pub fn space_blocked(&self, at: Pos, side: i32) -> bool {
        self.has_obstacles() && crate::space::squares(at, side).any(|q| self.obstacle(q))
    }

    /// Is any square of a space `side` across on `at` difficult terrain? [CEL-R9 Step]
    pub fn space_difficult(&self, at: Pos, side: i32) -> bool {
        self.has_difficult() && crate::space::squares(at, side).any(|q| self.difficult_at(q))
    }
}

/// May a space `side` across go from `p` one square to `q` (next to it)? Not onto an obstacle,
/// nor diagonally between two obstacles touching at their corners (the squares beside the step
/// both blocked: a wall running diagonally is still a wall). A reading: the seed gives no
/// diagonal rule, fray's grid counts a diagonal as 5 ft.
fn step_open(t: &Terrain, p: Pos, q: Pos, side: i32) -> bool {
    if t.space_blocked(q, side) {
        return false;
    }
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    dx == 0
        || dy == 0
        || !(t.space_blocked(Pos::new(p.x + dx, p.y), side)
            && t.space_blocked(Pos::new(p.x, p.y + dy), side))
}

/// The squares `who` can reach from where it stands within `max` squares of movement around the
/// map's obstacles, as a distance grid (a breadth-first search on the 5-ft grid, diagonals 5 ft,
/// the mover's whole space kept clear of obstacles; others' squares may be passed through).
#[derive(Debug)]
pub struct Reach {
    from: Pos,
    radius: i32,
    dist: Vec<u8>,
}

impl Reach {
    /// Unreached.
    const FAR: u8 = u8::MAX;

    /// The reach of `who` from `from` within `max` squares (at most [`MAX_PATH`]).
    pub fn of(state: &State, who: CombatantId, from: Pos, max: i32) -> Reach {
        let radius = max.clamp(0, MAX_PATH);
        let width = (2 * radius + 1) as usize;
        let mut reach = Reach {
            from,
            radius,
            dist: vec![Reach::FAR; width * width],
        };
        let side = state.side(who);
        let t = &state.terrain;
        let mut frontier = vec![from];
        if let Some(i) = reach.index(from) {
            reach.dist[i] = 0;
        }
        let mut next = Vec::new();
        for d in 1..=radius {
            for &p in &frontier {
                for (dx, dy) in NEIGHBOURS {
                    let q = Pos::new(p.x + dx, p.y + dy);
                    let Some(i) = reach.index(q) else { continue };
                    if reach.dist[i] != Reach::FAR || !step_open(t, p, q, side) {
                        continue;
                    }
                    reach.dist[i] = d as u8;
                    next.push(q);
                }
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        reach
    }

    fn index(&self, p: Pos) -> Option<usize> {
        let (dx, dy) = (p.x - self.from.x, p.y - self.from.y);
        if dx.abs() > self.radius || dy.abs() > self.radius {
            return None;
        }
        let width = 2 * self.radius + 1;
        Some(((dy + self.radius) * width + dx + self.radius) as usize)
    }

    /// The squares of movement to `p`, if it is reached.
    pub fn to(&self, p: Pos) -> Option<i32> {
        let d = self.dist[self.index(p)?];
        (d != Reach::FAR).then_some(i32::from(d))
    }
}

/// The eight steps, in a fixed order (the search's answer, a distance, does not depend on it).
const NEIGHBOURS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Can `who` move from where it stands to `to` within `max` squares around the obstacles?
/// Always true on a map without obstacles (the caller has checked the distance). [CEL-R9 Move]
pub fn path_within(state: &State, who: CombatantId, to: Pos, max: i32) -> bool {
    if !state.terrain.has_obstacles() {
        return true;
    }
    let from = state.f(who).pos;
    if from.squares_to(to) > max {
        return false;
    }
    Reach::of(state, who, from, max)
        .to(to)
        .is_some_and(|d| d <= max)
}

/// The feet `who` covers moving from where it stands to `to`: the straight distance on a map
/// without obstacles, else the shortest path around them (the straight distance if none is
/// found within a run's length: a GM's placement). [CEL-R9 Move]
pub fn path_feet(state: &State, who: CombatantId, to: Pos) -> i32 {
    let from = state.f(who).pos;
    let straight = from.feet_to(to);
    if !state.terrain.has_obstacles() {
        return straight;
    }
    // No move goes farther than a run, four times its speed (CEL-R12).
    let max = (4 * state.speed_squares(who))
        .max(from.squares_to(to))
        .clamp(1, MAX_PATH);
    Reach::of(state, who, from, max)
        .to(to)
        .map_or(straight, |d| d * fray_core::grid::SQUARE_FT)
}

/// Is the straight line from `from` to `to` (the start excluded, the end included) free of
/// obstacles for a space `side` across? A run goes "in a straight line" (CEL-R12 Run).
pub fn line_open(state: &State, side: i32, from: Pos, to: Pos) -> bool {
    let t = &state.terrain;
    if !t.has_obstacles() {
        return true;
    }
    let n = from.squares_to(to);
    let mut p = from;
    (1..=n).all(|i| {
        let q = from.point_on_line(to, i);
        let open = step_open(t, p, q, side);
        p = q;
        open
    })
}

/// Does difficult terrain hinder a charge along the straight line from `from` to `to` (any
/// square of the charger's space on it, the start excluded)? "If anything hinders or blocks
/// your movement along the path of a charge, you can't take the charge action" (CEL-R11
/// Charge); the seed's Step names difficult terrain as hampering movement (CEL-R9).
pub fn line_hindered(state: &State, side: i32, from: Pos, to: Pos) -> bool {
    let t = &state.terrain;
    t.has_difficult()
        && (1..=from.squares_to(to)).any(|i| t.space_difficult(from.point_on_line(to, i), side))
}

/// Why `who` may not take a Step from where it stands to `to`, if it may not: difficult terrain
/// under its space where it stands or where it would stand. [CEL-R9 Step]
pub fn step_hampered(state: &State, who: CombatantId, to: Pos) -> Option<&'static str> {
    let t = &state.terrain;
    if !t.has_difficult() {
        return None;
    }
    let (from, side) = (state.f(who).pos, state.side(who));
    (t.space_difficult(from, side) || t.space_difficult(to, side)).then_some(
        "its movement is hampered by difficult terrain: no Step (\"You can only take a Step if \
         your movement isn't hampered by difficult terrain or darkness\")",
    )
}

/// Where a stray shot's line from `from` through `to` hits an obstacle: the index (squares from
/// `from`, [`Pos::point_on_line`]) of the first obstacle square after `first` and up to `n`,
/// if one is. [CEL-R7.3: "continue that line until it hits an obstacle"]
pub fn first_obstacle(state: &State, from: Pos, to: Pos, first: i32, n: i32) -> Option<i32> {
    let t = &state.terrain;
    if !t.has_obstacles() {
        return None;
    }
    (first + 1..=n).find(|&i| t.obstacle(from.point_on_line(to, i)))
}

/// What a GM's terrain ruling does to its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marking {
    Obstacle,
    Difficult,
    Clear,
}

/// Most squares one ruling names.
pub const MAX_RULING_SQUARES: usize = 64;

/// The GM changes the map during the fight: `rule obstacle X Y [X Y …]` raises obstacles (a
/// wall, a fallen pillar: nobody stands there, no line passes), `rule difficult X Y [X Y …]`
/// marks difficult terrain (rubble, a spreading grease: no Step, no charge across), `rule clear
/// X Y [X Y …]` makes squares plain again (a door opened, the rubble cleared). The seed names
/// obstacles and difficult terrain but leaves the map to the GM (CEL-G13's "always
/// available"). Each square must change: an obstacle not under anyone's space and not on a
/// square of the other kind (clear it first), a cleared square one of either kind; one bad
/// square refuses the whole ruling and changes nothing. The change made, as the public event
/// that says it (the map is in plain sight); `Ok(None)`: not about terrain.
/// [CEL-R7.3, R9 Step, R11; `rules::line_of_effect`]
pub fn ruling(
    state: &mut State,
    intervention: &Intervention,
    text: &str,
) -> Result<Option<Event>, Interrupt> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (marking, rest) = match words.split_first() {
        Some((&"obstacle", rest)) => (Marking::Obstacle, rest),
        Some((&"difficult", rest)) => (Marking::Difficult, rest),
        Some((&"clear", rest)) => (Marking::Clear, rest),
        _ => return Ok(None),
    };
    let usage = format!(
        "`rule obstacle X Y`, `rule difficult X Y` or `rule clear X Y`, with 1 to \
         {MAX_RULING_SQUARES} squares as X Y pairs of whole numbers within ±1000000"
    );
    let squares: Option<Vec<Pos>> = rest
        .chunks(2)
        .map(|pair| match pair {
            [x, y] => x
                .parse::<i32>()
                .ok()
                .zip(y.parse::<i32>().ok())
                .filter(|(x, y)| x.abs() <= 1_000_000 && y.abs() <= 1_000_000)
                .map(|(x, y)| Pos::new(x, y)),
            _ => None,
        })
        .collect();
    let Some(squares) = squares.filter(|s| (1..=MAX_RULING_SQUARES).contains(&s.len())) else {
        return Err(intervention.refused(usage));
    };
    let t = &state.terrain;
    let (mut obstacles, mut difficult) = (t.obstacles.clone(), t.difficult.clone());
    for (i, &p) in squares.iter().enumerate() {
        let (x, y) = (p.x, p.y);
        if squares[..i].contains(&p) {
            return Err(intervention.refused(format!("({x}, {y}) is named twice")));
        }
        let problem = match marking {
            Marking::Clear if !t.obstacle(p) && !t.difficult_at(p) => {
                Some("is neither an obstacle nor difficult terrain".to_string())
            }
            Marking::Clear => None,
            _ if t.obstacle(p) => Some("is an obstacle already".to_string()),
            _ if t.difficult_at(p) => Some(format!(
                "is difficult terrain already{}",
                if marking == Marking::Obstacle {
                    ": `rule clear X Y` first"
                } else {
                    ""
                }
            )),
            Marking::Obstacle => state
                .ids()
                .find(|&id| {
                    !state.f(id).absent()
                        && crate::space::squares(state.f(id).pos, state.side(id)).any(|q| q == p)
                })
                .map(|id| {
                    format!(
                        "is under {}'s space: nobody stands on an obstacle (`move WHO X Y` first)",
                        state.roster.key(id)
                    )
                }),
            Marking::Difficult => None,
        };
        if let Some(problem) = problem {
            return Err(intervention.refused(format!("({x}, {y}) {problem}")));
        }
        match marking {
            Marking::Obstacle => obstacles.push(p),
            Marking::Difficult => difficult.push(p),
            Marking::Clear => {
                obstacles.retain(|&q| q != p);
                difficult.retain(|&q| q != p);
            }
        }
    }
    if obstacles.len() > MAX_SQUARES || difficult.len() > MAX_SQUARES {
        return Err(intervention.refused(format!(
            "at most {MAX_SQUARES} obstacle squares and as many difficult ones"
        )));
    }
    state.terrain = std::sync::Arc::new(Terrain::new(obstacles, difficult));
    // A destination worked out on the old map is no longer one (`movement::LastDestination`).
    state.destination.forget();
    Ok(Some(Event::Terrain {
        change: match marking {
            Marking::Obstacle => "obstacle",
            Marking::Difficult => "difficult",
            Marking::Clear => "clear",
        },
        squares,
        rule: "GM",
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{Fixture, FIGHTER};

    /// A wall from (2, -3) to (2, 3) with no gap: from (0, 0) the square (4, 0) beyond it is 8
    /// steps away (down to row 4 to pass its end, 4 steps, and back up, 4 more); a diagonal
    /// between two obstacles touching at a corner is closed; a Large space needs all four
    /// squares clear. [CEL-R9 Move, CEL-R21.3]
    #[test]
    fn a_path_goes_around_a_wall() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [9, 0], "orc")
            .state();
        let hal = CombatantId(0);
        let wall: Vec<Pos> = (-3..=3).map(|y| Pos::new(2, y)).collect();
        s.terrain = std::sync::Arc::new(Terrain::new(wall, Vec::new()));
        let reach = Reach::of(&s, hal, Pos::new(0, 0), 10);
        assert_eq!(reach.to(Pos::new(2, 4)), Some(4));
        assert_eq!(reach.to(Pos::new(4, 0)), Some(8));
        assert_eq!(reach.to(Pos::new(2, 0)), None, "an obstacle");
        assert_eq!(reach.to(Pos::new(1, 0)), Some(1));
        assert!(!path_within(&s, hal, Pos::new(4, 0), 6), "speed 30 ft");
        assert!(path_within(&s, hal, Pos::new(4, 0), 8));
        assert!(path_within(&s, hal, Pos::new(1, 3), 6));
        // A diagonal wall: (1,0) and (0,1) touch at a corner; the step (0,0)→(1,1) is closed.
        s.terrain = std::sync::Arc::new(Terrain::new(
            vec![Pos::new(1, 0), Pos::new(0, 1)],
            Vec::new(),
        ));
        let reach = Reach::of(&s, hal, Pos::new(0, 0), 3);
        assert_eq!(reach.to(Pos::new(1, 1)), Some(3), "around, not between");
        assert!(
            !s.space_free(Pos::new(1, 0), hal),
            "no standing on an obstacle"
        );
        // A Large creature's 2 × 2 space needs both columns clear.
        s.terrain = std::sync::Arc::new(Terrain::new(vec![Pos::new(1, 1)], Vec::new()));
        assert!(s.terrain.space_blocked(Pos::new(0, 0), 2));
        assert!(!s.terrain.space_blocked(Pos::new(0, 0), 1));
    }

    /// The GM raises an obstacle, marks difficult terrain and clears them; a square under a
    /// combatant, one already marked, a square named twice or a bad number refuses the whole
    /// ruling and changes nothing; other rulings are not about terrain.
    #[test]
    fn the_gm_changes_the_map() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [4, 0], "orc")
            .state();
        let rule = |s: &mut State, text: &str| {
            let iv = Intervention::Ruling { text: text.into() };
            ruling(s, &iv, text).map(|event| event.is_some())
        };
        assert_eq!(rule(&mut s, "the bridge holds").ok(), Some(false));
        let iv = Intervention::Ruling {
            text: "obstacle 2 -1 2 0 2 1".into(),
        };
        assert_eq!(
            ruling(&mut s, &iv, "obstacle 2 -1 2 0 2 1").ok(),
            Some(Some(Event::Terrain {
                change: "obstacle",
                squares: vec![Pos::new(2, -1), Pos::new(2, 0), Pos::new(2, 1)],
                rule: "GM",
            }))
        );
        assert!(s.terrain.obstacle(Pos::new(2, 0)));
        assert_eq!(s.terrain.obstacles().len(), 3);
        let before = s.terrain.clone();
        for bad in [
            "obstacle 3 3 4 0",
            "obstacle 2 0",
            "obstacle 5 5 5 5",
            "obstacle 5",
            "obstacle x 1",
            "obstacle 1 2000000",
            "clear 7 7",
            "obstacle",
        ] {
            assert!(rule(&mut s, bad).is_err(), "{bad}");
            assert_eq!(s.terrain, before, "{bad} changed nothing");
        }
        assert_eq!(rule(&mut s, "difficult 3 0").ok(), Some(true));
        assert!(s.terrain.space_difficult(Pos::new(3, 0), 1));
        assert!(rule(&mut s, "obstacle 3 0").is_err(), "difficult already");
        assert_eq!(rule(&mut s, "clear 3 0 2 0").ok(), Some(true));
        assert!(!s.terrain.has_difficult());
        assert!(!s.terrain.obstacle(Pos::new(2, 0)));
        assert_eq!(s.terrain.obstacles().len(), 2);
    }

    /// A pillar on a charge's straight line closes that line but neither the lines around it
    /// nor the sight of the foe: the path and the line of effect are separate tests. [CEL-R11]
    #[test]
    fn a_pillar_closes_a_charge_line_not_the_sight() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [6, 0], "orc")
            .state();
        s.terrain = std::sync::Arc::new(Terrain::new(vec![Pos::new(3, 0)], Vec::new()));
        assert!(!line_open(&s, 1, Pos::new(0, 0), Pos::new(5, 0)));
        assert!(line_open(&s, 1, Pos::new(0, 0), Pos::new(5, -1)));
        assert!(crate::rules::line_of_effect::open(
            &s,
            CombatantId(0),
            CombatantId(1)
        ));
    }

    /// Difficult terrain under where a creature stands or would stand hampers a Step, and a
    /// charge line across it is hindered; without any, nothing is. [CEL-R9 Step, CEL-R11]
    #[test]
    fn difficult_terrain_hampers_a_step_and_hinders_a_charge() {
        let mut s = Fixture::new()
            .with("hal", "heroes", [0, 0], FIGHTER)
            .monster("orc", "orcs", [6, 0], "orc")
            .state();
        let hal = CombatantId(0);
        assert!(step_hampered(&s, hal, Pos::new(1, 0)).is_none());
        s.terrain = std::sync::Arc::new(Terrain::new(Vec::new(), vec![Pos::new(3, 0)]));
        assert!(step_hampered(&s, hal, Pos::new(1, 0)).is_none());
        assert!(step_hampered(&s, hal, Pos::new(0, 1)).is_none());
        assert!(line_hindered(&s, 1, Pos::new(0, 0), Pos::new(5, 0)));
        assert!(!line_hindered(&s, 1, Pos::new(0, 0), Pos::new(2, 0)));
        s.set_square(hal, Pos::new(2, 0));
        assert!(step_hampered(&s, hal, Pos::new(3, 0)).is_some(), "into it");
        s.set_square(hal, Pos::new(3, 0));
        assert!(
            step_hampered(&s, hal, Pos::new(3, 1)).is_some(),
            "out of it"
        );
    }
}
