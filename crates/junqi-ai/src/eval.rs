//! Static evaluation shared by the bots: piece values, who is an enemy, and the evaluation of a
//! full (determinized) position from one side's point of view.

use junqi_core::combat::resolve;
use junqi_core::{Mode, Observation, Position, Role, Rules, Seat, SquareKind, TeamMap, Topology};

/// Material value of each role (indexed by `role as usize`).
pub const VALUES: [f64; 12] = [
    10.0, // marshal
    8.0,  // general
    6.0,  // major general
    4.5,  // brigadier
    3.5,  // colonel
    2.5,  // major
    2.0,  // captain
    1.5,  // lieutenant
    2.5,  // engineer (clears landmines, runs the rail)
    5.0,  // bomb
    2.5,  // landmine
    30.0, // flag (its loss ends the game; this is only for expectations)
];

/// Penalty for an owner with 0, 1, 2 or 3 pieces left that can move (none: already out).
const LAST_MOVERS: [f64; 4] = [0.0, 6.0, 3.0, 1.5];

/// Cost of one's flag being announced (dark play: on the marshal's loss).
const FLAG_SHOWN: f64 = 4.0;

/// The score of a won game (minus: lost).
pub const WIN: f64 = 10_000.0;

/// Value of a role.
#[inline]
pub fn value(r: Role) -> f64 {
    VALUES[r as usize]
}

/// The team index of a seat under the game's rules (two- and three-player: the seat itself).
#[inline]
pub fn team_of(rules: &Rules, seat: Seat) -> u8 {
    rules.teams().team_of(seat).0
}

/// The owner index (seat, or flip colour) `seat` plays, if known.
pub fn my_owner(obs: &Observation, seat: Seat) -> Option<u8> {
    if obs.rules.mode == Mode::Flip {
        obs.flip_colours.map(|c| c[seat as usize])
    } else {
        Some(seat)
    }
}

/// Whether pieces of `owner` are enemies of `seat` (flip play: of the other colour, once
/// colours are settled).
pub fn is_enemy(obs: &Observation, seat: Seat, owner: u8) -> bool {
    if obs.rules.mode == Mode::Flip {
        my_owner(obs, seat).is_some_and(|c| c != owner)
    } else {
        !obs.rules.teams().same_team(owner, seat)
    }
}

/// How far a square lies towards the enemy, 0 (own back row) to about 1 (enemy back row), for
/// pieces of `owner`. A teammate's arm is no way forward (multi-seat boards with teams): a piece
/// there blocks the teammate's own pieces and rail lines, so it counts as little as one's own
/// back rows.
pub fn advance(topo: &Topology, teams: &TeamMap, owner: u8, sq: junqi_core::Square) -> f64 {
    match topo.home(sq) {
        Some(l) if l.seat == owner => (5 - l.row) as f64 / 11.0,
        Some(l) if teams.same_team(l.seat, owner) => MATE_ARM,
        Some(l) => (6 + l.row) as f64 / 11.0,
        None => 0.55,
    }
}

/// [`advance`] of a square in a teammate's arm.
const MATE_ARM: f64 = 0.1;

/// The value of an end of the game (or of one's team being out while others play on) for a
/// team placed `placing` (1 = won, shared placings are averages) among `teams` teams: the
/// placing's score (1 for first, 0 for last, linear between; two teams: win 1, draw ½, loss 0)
/// mapped onto −[`WIN`] … [`WIN`].
pub fn placing_value(placing: f64, teams: usize) -> f64 {
    let n = teams.max(2) as f64;
    let score = (n - placing) / (n - 1.0);
    (2.0 * score - 1.0) * WIN
}

/// Evaluate a full position for the side of `seat` (its team on boards with teams): the game's
/// result if it is over, else material, plus small terms for advancing and for enemy pieces
/// near one's flag, shrunk towards a draw as the quiet-plies limit nears.
///
/// With more than two teams (three-player play, four and six seats with `teams = none`, six
/// with `opposite`) every other team is an enemy, and enemies fight each other too: the material
/// term is one's own team against the *average* of the enemy teams still in the game (so an
/// even exchange with one enemy is a loss against the others, who watch), the threats counted
/// are one's own against enemy flags and the enemies' against one's own team's flags (an
/// enemy's threat to a third seat is neither), and every enemy team out of the game is worth
/// `WIN / (teams − 1)`: the placing it guarantees (a team out before us places below us). A
/// team of ours that is out is valued by its placing ([`placing_value`]) even while the others
/// play on. With two teams all of this is the plain two-sided evaluation.
pub fn evaluate(pos: &Position, seat: Seat) -> f64 {
    let rules = pos.rules();
    // (The team map is worked out once here: `Rules::teams` derives it on every call.)
    let teams = rules.teams();
    let team_of = |s: Seat| teams.team_of(s).0;
    let n_teams = teams.count();
    let my_team = team_of(seat);
    if let Some(o) = pos.outcome() {
        return match o {
            junqi_core::Outcome::Win { winners, .. } => {
                let won = winners.iter().any(|s| team_of(s) == my_team);
                if won {
                    WIN - pos.plies() as f64
                } else if n_teams <= 2 {
                    -WIN + pos.plies() as f64
                } else {
                    // Out with the winner the only team left ahead of us: second.
                    placing_value(2.0, n_teams)
                }
            }
            // The teams still in share the top placings.
            _ if n_teams > 2 && team_out(&teams, pos, junqi_core::Team(my_team)) => {
                placing_value(teams_in(&teams, pos) as f64 + 1.0, n_teams)
            }
            _ => enemies_out_value(&teams, pos, my_team),
        };
    }
    let multi = n_teams > 2;
    if multi && team_out(&teams, pos, junqi_core::Team(my_team)) {
        // Our team is out; every team still in places above us.
        return placing_value(teams_in(&teams, pos) as f64 + 1.0, n_teams);
    }
    // The side to move can take a flag now: two-player, as good as the game (short of a proof:
    // the search goes on to play it, and this keeps a stand-pat from hiding the threat).
    // Multi-seat, taking a flag puts out one seat, not the side, and only the seat to move
    // can take it now (an enemy seat moves before the partner's piece could): the position is
    // worth what it is worth once the flag is taken. Valuing the threat above the capture
    // would make the search keep threatening a flag rather than take it. With more than two
    // teams only a capture by our team or of our team's flag counts: an enemy taking a third
    // team's flag is its business (the search's enemies play against us).
    let flip = rules.mode == Mode::Flip;
    let mover = team_of(pos.to_move());
    let multi_seat = rules.board.is_multi_seat();
    if let Some((from, to)) =
        flag_taker(pos, &teams, mover, multi_seat.then(|| pos.to_move()), |t| {
            !multi || mover == my_team || t == my_team
        })
    {
        if multi_seat {
            let mut taken = pos.clone();
            taken.play_unchecked(junqi_core::Action::Move { from, to }, &mut ());
            return evaluate(&taken, seat);
        }
        return if mover == my_team {
            WIN / 2.0
        } else {
            -WIN / 2.0
        };
    }
    let topo = pos.topology();
    let side_of = |owner: u8| -> Option<u8> {
        if flip {
            pos.seat_of_colour(owner).map(&team_of)
        } else {
            Some(team_of(owner))
        }
    };
    // Per team: material, advance and the costs below; `threat`: pressure on flags between our
    // team and the others (ours on theirs counts for us, theirs on ours against us).
    let mut side_value = [0.0f64; junqi_core::MAX_SEATS];
    let mut threat = 0.0;
    let mut flags: junqi_core::PerSeat<Option<junqi_core::Square>> = [None; junqi_core::MAX_SEATS];
    for (sq, p) in pos.fixed_pieces() {
        if p.role == Role::Flag && !p.face_down {
            flags[p.seat as usize] = Some(sq);
            // A flag announced to all (its marshal lost) draws every enemy piece straight to
            // it: worth more than the marshal's material says (in flip play every face-up flag
            // is public, and the plans below weigh it).
            if !flip && pos.is_public(sq) {
                side_value[team_of(p.seat) as usize] -= FLAG_SHOWN;
            }
        }
    }
    // Pieces per owner that can still move (an owner left with none is out of the game).
    let mut movers = [0u32; junqi_core::MAX_SEATS];
    let locked = rules.hq_locked();
    for (sq, p) in pos.pieces() {
        let Some(side) = side_of(p.seat) else {
            continue;
        };
        if p.role.is_movable() && !(locked && topo.kind(sq) == SquareKind::Headquarters) {
            movers[p.seat as usize] += 1;
        }
        // A face-down piece counts as what it is: summed over a colour's face-down pieces that
        // is the value of the pieces not yet seen (public), so a flip moves no material from
        // one side to the other; what it is worth is where it puts the piece it turns up.
        let mut v = value(p.role);
        if !p.face_down && p.role.is_movable() {
            v += 0.3 * advance(topo, &teams, p.seat, sq);
            if topo.kind(sq) == SquareKind::Camp {
                v += 0.1;
            }
            // Pressure on a flag of another side (between our side and another only).
            let mine = side == my_team;
            for (fs, f) in flags.iter().enumerate() {
                let Some(f) = f else { continue };
                let Some(fside) = side_of(fs as u8) else {
                    continue;
                };
                if fside == side || (!mine && fside != my_team) {
                    continue;
                }
                let d = topo.distance(sq, *f) as i32;
                if d <= 3 {
                    let t = 0.4 * (4 - d) as f64;
                    threat += if mine { t } else { -t };
                }
            }
        }
        side_value[side as usize] += v;
    }
    // Running out of pieces that move loses the game however much else is left standing, so
    // the last few are worth more than their rank (an owner with none is already out).
    for (owner, &n) in movers.iter().enumerate().take(rules.seats()) {
        let Some(side) = side_of(owner as u8) else {
            continue;
        };
        side_value[side as usize] -= LAST_MOVERS.get(n as usize).copied().unwrap_or(0.0);
    }
    // Our team against the enemy teams still in the game (two teams: against the other).
    let mut enemy_sum = 0.0;
    let mut enemies_in = 0usize;
    for t in teams.teams() {
        if t.0 != my_team && !team_out(&teams, pos, t) {
            enemy_sum += side_value[t.index()];
            enemies_in += 1;
        }
    }
    let mut score = side_value[my_team as usize] - enemy_sum / enemies_in.max(1) as f64 + threat;
    if flip {
        score += flip_plan(pos, &teams, my_team);
    }
    // A quiet-plies draw scores 0 (more than two teams: the placing the teams out already
    // guarantee): as it nears, the position's worth shrinks towards that, so the side ahead
    // prefers an attack (which resets the count) to another quiet move.
    let limit = rules.options.quiet_plies.max(1) as f64;
    let pressure = (pos.quiet_plies() as f64 / limit).min(1.0);
    score * (1.0 - 0.6 * pressure * pressure) + enemies_out_value(&teams, pos, my_team)
}

/// With more than two teams, what the enemy teams out of the game are worth to `my_team`:
/// `WIN / (teams − 1)` each (0 with two teams). It is also the value of a draw: the teams still
/// in share the top placings.
fn enemies_out_value(teams: &TeamMap, pos: &Position, my_team: u8) -> f64 {
    let n = teams.count();
    if n <= 2 {
        return 0.0;
    }
    let out = teams
        .teams()
        .filter(|&t| t.0 != my_team && team_out(teams, pos, t))
        .count();
    WIN * out as f64 / (n - 1) as f64
}

/// Whether every seat of `team` is out ([`Position::team_out`] with the team map at hand).
#[inline]
fn team_out(teams: &TeamMap, pos: &Position, team: junqi_core::Team) -> bool {
    teams.members(team).minus(pos.eliminated()).is_empty()
}

/// Number of teams with a seat still in the game.
fn teams_in(teams: &TeamMap, pos: &Position) -> usize {
    teams.teams().filter(|&t| !team_out(teams, pos, t)).count()
}

/// Flip play's plans, from `my_team`'s side (each term counted for both sides, opposite signs).
/// Once everything is face up, material alone gives a search no direction and games end in the
/// quiet-plies draw; these terms give the ways a flip game is won a gradient:
/// - the flag: it may be taken only once its colour's three landmines are gone, so each enemy
///   landmine cleared is worth more than its material, engineers (which clear them safely) and
///   bombs (which blow them up) are drawn towards face-up enemy landmines, and a flag left
///   unguarded draws every piece;
/// - elimination: each movable piece is drawn towards the nearest enemy piece it beats, more
///   strongly for the side ahead in pieces that move (for it the hunt is the way to win).
fn flip_plan(pos: &Position, teams: &TeamMap, my_team: u8) -> f64 {
    let topo = pos.topology();
    let rules = *pos.rules();

    if pos.flip_colours().is_none() {
        return 0.0;
    }
    let beats = beats_table(&rules);
    // Per colour: landmines left (face down included), the flag's square if face up, and the
    // face-up pieces (coordinates and role) — gathered in one pass, as this runs at every leaf.
    let mut mines = [0u32; 2];
    let mut flag: [Option<junqi_core::Square>; 2] = [None; 2];
    let mut up = [[(junqi_core::Square(0), Role::Flag); 25]; 2];
    let mut n_up = [0usize; 2];
    for (sq, p) in pos.pieces() {
        let c = p.seat as usize & 1;
        if p.role == Role::Landmine {
            mines[c] += 1;
        }
        if p.face_down {
            continue;
        }
        if p.role == Role::Flag {
            flag[c] = Some(sq);
        } else if n_up[c] < 25 {
            up[c][n_up[c]] = (sq, p.role);
            n_up[c] += 1;
        }
    }
    // Step distance (road and rail edges, ignoring pieces): a cheap stand-in for the number of
    // moves (rail slides only make it shorter), good enough to tell the search which way is closer.
    let dist = |a: junqi_core::Square, b: junqi_core::Square| -> i32 { topo.distance(a, b) as i32 };
    // A side with more movable pieces than the other gains by trading (the other runs out of
    // pieces that move first), so its pieces are drawn towards equal enemy ones too.
    let mut movers = [0usize; 2];
    for c in 0..2 {
        movers[c] = up[c][..n_up[c]]
            .iter()
            .filter(|(_, r)| r.is_movable())
            .count();
    }
    let mut score = 0.0;
    for colour in 0..2usize {
        let side = teams
            .team_of(pos.seat_of_colour(colour as u8).unwrap_or(0))
            .0;
        let sign = if side == my_team { 1.0 } else { -1.0 };
        let enemy = 1 - colour;
        let ahead = movers[colour] > movers[enemy] + 1;
        let mut plan = 0.8 * (3u32.saturating_sub(mines[enemy])) as f64;
        // Engineers are the safe way through the enemy's landmines: while some are left, the
        // engineers that could clear them are worth more than their rank.
        let engineers = up[colour][..n_up[colour]]
            .iter()
            .filter(|(_, r)| *r == Role::Engineer)
            .count() as u32;
        plan += 1.5 * engineers.min(mines[enemy]) as f64;
        let target_flag = flag[enemy].filter(|_| mines[enemy] == 0);
        for &(at, role) in &up[colour][..n_up[colour]] {
            if !role.is_movable() {
                continue;
            }
            // Nearest enemy piece this one takes (or, for an engineer, a landmine it clears),
            // and for a bomb the nearest landmine: blowing one up opens the way to the flag.
            let mut best = i32::MAX;
            let mut mine = i32::MAX;
            for &(eat, erole) in &up[enemy][..n_up[enemy]] {
                let wins = beats.wins(role, erole);
                // A trade of movers (equal ranks, a bomb): the side ahead gains by it.
                let trades = ahead && erole.is_movable() && beats.both(role, erole);
                if wins || trades {
                    best = best.min(dist(at, eat));
                }
                if role == Role::Bomb && erole == Role::Landmine {
                    mine = mine.min(dist(at, eat));
                }
            }
            if best < 9 {
                // Ahead in pieces that move, the game is won by taking the rest: the hunt
                // matters more than where the pieces stand.
                let w = if role == Role::Engineer || ahead {
                    0.12
                } else {
                    0.05
                };
                plan += w * (9 - best) as f64;
            }
            if mine < 9 {
                plan += 0.12 * (9 - mine) as f64;
            }
            if let Some(f) = target_flag {
                plan += 0.3 * (10 - dist(at, f)).max(0) as f64;
            }
        }
        if target_flag.is_some() {
            plan += 4.0;
        }
        score += sign * plan;
    }
    score
}

/// For each attacking role, the sets (bit per role) of defenders it removes and survives, and
/// of those it goes down with — computed once per thread and rule set, as the evaluation asks
/// at every leaf (and the root's flag pricing, [`crate::threats`], once per decision).
pub(crate) fn beats_table(rules: &Rules) -> Beats {
    thread_local! {
        static CACHE: std::cell::Cell<Option<(Rules, Beats)>> = const { std::cell::Cell::new(None) };
    }
    CACHE.with(|c| {
        if let Some((r, t)) = c.get() {
            if r == *rules {
                return t;
            }
        }
        let mut t = Beats {
            wins: [0; 12],
            both: [0; 12],
        };
        for a in Role::ALL.into_iter().filter(|a| a.is_movable()) {
            for d in Role::ALL {
                let r = resolve(rules, a, d);
                if r.attacker_survives && !r.defender_survives {
                    t.wins[a as usize] |= 1 << d as usize;
                } else if !r.attacker_survives && !r.defender_survives {
                    t.both[a as usize] |= 1 << d as usize;
                }
            }
        }
        c.set(Some((*rules, t)));
        t
    })
}

/// Per attacking role, bit sets of defending roles: those it removes and survives (`wins`),
/// and those it is removed with (`both`: equal ranks, a bomb, a bomb's landmine).
#[derive(Clone, Copy)]
pub(crate) struct Beats {
    pub(crate) wins: [u16; 12],
    pub(crate) both: [u16; 12],
}

impl Beats {
    /// Whether `attacker` removes `defender` and survives.
    pub(crate) fn wins(&self, attacker: Role, defender: Role) -> bool {
        self.wins[attacker as usize] >> defender as usize & 1 != 0
    }

    /// Whether `attacker` and `defender` are both removed.
    pub(crate) fn both(&self, attacker: Role, defender: Role) -> bool {
        self.both[attacker as usize] >> defender as usize & 1 != 0
    }
}

/// Whether a piece of `team` stands next to an enemy flag it may take on its next move (with
/// `win_by_flag = capture`: taking the flag ends the game). Only neighbours are looked at: no HQ
/// lies on the railway, so a flag in an HQ is reached only from a neighbouring square (a flip
/// flag off the HQs may also be reached along a rail line; that is left to the search).
pub fn threatens_flag(pos: &Position, team: u8) -> bool {
    flag_taker(pos, &pos.rules().teams(), team, None, |_| true).is_some()
}

/// Whether a flag of `victim` (a team) could be taken on the next move by a piece of a team for
/// which `by` holds ([`threatens_flag`] seen from the flag's side).
pub fn flag_threatened(pos: &Position, victim: u8, by: impl Fn(u8) -> bool) -> bool {
    let teams = pos.rules().teams();
    (0..teams.count() as u8).any(|t| {
        t != victim && by(t) && flag_taker(pos, &teams, t, None, |v| v == victim).is_some()
    })
}

/// A move (from, to) by which a piece of `team` (of seat `by` alone, if given) standing next
/// to an enemy flag whose team passes `victim` takes it, as [`threatens_flag`] finds them. `by`
/// is compared with the pieces' owners, which are seats except in flip play (colours there).
fn flag_taker(
    pos: &Position,
    teams: &TeamMap,
    team: u8,
    by: Option<Seat>,
    victim: impl Fn(u8) -> bool,
) -> Option<(junqi_core::Square, junqi_core::Square)> {
    let rules = pos.rules();
    if rules.carry_home() {
        return None;
    }
    let board = rules.board;
    let topo = pos.topology();
    let team_of_owner = |owner: u8| -> Option<u8> {
        if rules.mode == Mode::Flip {
            pos.seat_of_colour(owner).map(|s| teams.team_of(s).0)
        } else {
            Some(teams.team_of(owner).0)
        }
    };
    for (fsq, f) in pos.fixed_pieces() {
        if f.role != Role::Flag || f.face_down {
            continue;
        }
        let fteam = team_of_owner(f.seat);
        if fteam == Some(team) || !fteam.is_some_and(&victim) {
            continue;
        }
        if rules.options.flag_guarded_by_mines
            && pos
                .fixed_pieces()
                .any(|(_, p)| p.seat == f.seat && p.role == Role::Landmine)
        {
            continue;
        }
        for n in topo.neighbours(fsq) {
            let Some(p) = pos.piece_at(n) else { continue };
            if p.face_down
                || !p.role.is_movable()
                || team_of_owner(p.seat) != Some(team)
                || (rules.hq_locked() && topo.kind(n) == SquareKind::Headquarters)
                || (board.is_multi_seat() && pos.is_eliminated(p.seat))
                || by.is_some_and(|s| s != p.seat)
            {
                continue;
            }
            return Some((n, fsq));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use junqi_core::text::position_from_text;

    fn pos(text: &str) -> Position {
        position_from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn a_piece_next_to_an_enemy_flag_threatens_it() {
        // North's captain stands on b2, next to South's flag on b1.
        let p = pos("two_player dark 1 a1=0L b1=0F c1=0L e4=05 b2=13 d12=1F e12=1L");
        assert!(threatens_flag(&p, 1));
        assert!(!threatens_flag(&p, 0));
        // The mover can take it: the evaluation calls it as good as won for North.
        assert!(evaluate(&p, 1) >= WIN / 2.0);
        assert!(evaluate(&p, 0) <= -WIN / 2.0);
        // Without the captain, neither side threatens anything.
        let quiet = pos("two_player dark 1 a1=0L b1=0F c1=0L e4=05 d12=1F e12=1L c9=13");
        assert!(!threatens_flag(&quiet, 1));
        assert!(evaluate(&quiet, 1).abs() < WIN / 2.0);
    }

    #[test]
    fn landmines_guard_a_flip_flag() {
        // Colour 0's flag is face up on b1 with colour 1's captain next to it: while a colour-0
        // landmine stands anywhere the flag may not be attacked.
        let guarded = pos("two_player flip 1 colours=0,1 b1=0F e8=0L b2=13 c5=05 d12=1F");
        assert!(!threatens_flag(&guarded, 1));
        let bare = pos("two_player flip 1 colours=0,1 b1=0F b2=13 c5=05 d12=1F");
        assert!(threatens_flag(&bare, 1));
    }

    #[test]
    fn an_announced_flag_costs_its_side() {
        // North's bomb on c6 takes South's marshal on c5: South's flag on b1 is announced.
        let start = "two_player dark 1 a1=0L b1=0F c1=0L c5=09 e3=02 c6=1B d9=12 d12=1F e12=1L";
        let mut shown = pos(start);
        let topo = shown.topology();
        let act = junqi_core::notation::action_from_text(topo, "c6-c5").unwrap();
        let mut events = Vec::new();
        shown.play(act, &mut events).unwrap();
        assert!(events
            .iter()
            .any(|e| matches!(e, junqi_core::Event::FlagRevealed { seat: 0, .. })));
        // The same pieces with nothing announced.
        let hidden = pos("two_player dark 0 plies=1 a1=0L b1=0F c1=0L e3=02 d9=12 d12=1F e12=1L");
        let cost = evaluate(&hidden, 0) - evaluate(&shown, 0);
        assert!((cost - FLAG_SHOWN).abs() < 1e-9, "cost {cost}");
        assert!((evaluate(&shown, 1) - evaluate(&hidden, 1) - FLAG_SHOWN).abs() < 1e-9);
    }

    #[test]
    fn a_flip_moves_no_material() {
        // Turning up a piece that cannot move (colour 1's landmine on a9, colour 0's flag on
        // b1) changes neither side's material: a face-down piece already counts as what it is
        // (summed over a colour, the public value of the pieces not yet seen).
        let before = pos(
            "two_player flip 0 colours=0,1 b1=0F* e2=0L a6=05 a9=1L* e9=13 c12=1L d12=1L e12=1F",
        );
        for flip in ["flip a9", "flip b1"] {
            let mut after = before.clone();
            let act = junqi_core::notation::action_from_text(after.topology(), flip).unwrap();
            after.play(act, &mut Vec::new()).unwrap();
            // The same side to move and quiet count, for a like-for-like comparison.
            let mut same = before.clone();
            same.pass_as_flip_unchecked(&mut ());
            let (a, b) = (evaluate(&after, 0), evaluate(&same, 0));
            assert!((a - b).abs() < 1e-9, "{flip}: {a} against {b}");
        }
    }

    #[test]
    fn a_flip_bomb_is_drawn_to_the_enemy_landmines() {
        // Colour 1's last landmine stands on a9; colour 0's bomb on a6 (three steps away) or
        // on e6 (five away through the camps, same rank, so it has advanced as far): blowing up
        // the mine opens the way to the flag, so the nearer bomb is worth more (0.12 a step).
        let near = pos("two_player flip 1 colours=0,1 b1=0F a6=0B a9=1L e12=1F");
        let far = pos("two_player flip 1 colours=0,1 b1=0F e6=0B a9=1L e12=1F");
        let gain = evaluate(&near, 0) - evaluate(&far, 0);
        assert!(gain > 0.2, "gain {gain}");
    }

    #[test]
    fn ahead_in_movers_the_hunt_pulls_harder() {
        // Colour 0's marshal chases colour 1's lone captain (on a9) from a6 or from e6 (colour
        // 1's landmines, far off, keep its flag shut), two steps nearer from a6. With colour 0
        // ahead in pieces that move (three lieutenants more), each step closer is worth more
        // than when level (0.12 against 0.05).
        let mines = "c12=1L d12=1L e11=1L";
        let level_near = pos(&format!(
            "two_player flip 1 colours=0,1 b1=0F a6=09 a9=13 e12=1F {mines}"
        ));
        let level_far = pos(&format!(
            "two_player flip 1 colours=0,1 b1=0F e6=09 a9=13 e12=1F {mines}"
        ));
        let extra = format!("c2=02 d2=02 e2=02 {mines}");
        let ahead_near = pos(&format!(
            "two_player flip 1 colours=0,1 b1=0F a6=09 a9=13 e12=1F {extra}"
        ));
        let ahead_far = pos(&format!(
            "two_player flip 1 colours=0,1 b1=0F e6=09 a9=13 e12=1F {extra}"
        ));
        let level = evaluate(&level_near, 0) - evaluate(&level_far, 0);
        let ahead = evaluate(&ahead_near, 0) - evaluate(&ahead_far, 0);
        assert!(level > 0.0, "level {level}");
        assert!(ahead > level + 0.1, "ahead {ahead}, level {level}");
    }

    #[test]
    fn four_player_a_flag_the_mover_can_take_is_worth_its_capture() {
        // South (seat 0, to move) has a captain next to East's flag: the position is worth
        // what it is worth once the flag is taken (East out, its pieces gone), not more. The
        // same captain as North's (seat 2), who moves after East, threatens nothing yet.
        let t = junqi_core::Topology::four_player();
        let name = |seat: Seat, row: u8, col: u8| t.name(t.local(seat, row, col)).to_string();
        let mut flags = String::new();
        for seat in 0..4 {
            flags += &format!(" {}={seat}F", name(seat, 5, 1));
            flags += &format!(" {}={seat}8", name(seat, 2, 2));
        }
        let next_to_east_flag = name(1, 4, 1);
        let by_south = pos(&format!("four_player dark 0{flags} {next_to_east_flag}=03"));
        let mut taken = by_south.clone();
        let from = t.parse_square(&next_to_east_flag).unwrap();
        taken
            .play(
                junqi_core::Action::Move {
                    from,
                    to: t.local(1, 5, 1),
                },
                &mut (),
            )
            .unwrap();
        assert!(taken.is_eliminated(1));
        assert_eq!(evaluate(&by_south, 0), evaluate(&taken, 0));
        assert!(evaluate(&by_south, 0) < WIN / 4.0);
        let by_north = pos(&format!("four_player dark 0{flags} {next_to_east_flag}=23"));
        assert!(threatens_flag(&by_north, 0));
        assert!(evaluate(&by_north, 0) < evaluate(&by_south, 0));
    }

    #[test]
    fn the_last_pieces_that_move_are_worth_more() {
        // South keeps two movable pieces or one; the second is worth more than its rank.
        let two = pos("two_player dark 1 b1=0F a1=0L c3=02 e3=02 d12=1F c9=13 a9=13 e9=13");
        let one = pos("two_player dark 1 b1=0F a1=0L c3=02 d12=1F c9=13 a9=13 e9=13");
        let drop = evaluate(&two, 0) - evaluate(&one, 0);
        assert!(drop > value(Role::Lieutenant) + 1.0, "drop {drop}");
    }
}
