//! Land-sea-air games between two [`LsaBot`]s, as the referee runs them: each bot sees only
//! its seat's view and the events its seat receives.

use super::bot::LsaBot;
use crate::{BotError, Budget};
use junqi_core::lsa::{events_for, Event, Mode, Observer, Options, Position, Side, Status};

/// How one game ended, from South's (the first bot's) side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LsaResult {
    /// The side won.
    Win(Side),
    /// Drawn.
    Draw,
}

/// Play one game: `bots[0]` is South, `bots[1]` North. A bot that cannot answer loses.
pub fn play_game(
    mut bots: [&mut dyn LsaBot; 2],
    options: &Options,
    mode: Mode,
    seed: u64,
    budget: Budget,
) -> Result<LsaResult, (Side, BotError)> {
    let sides = [Side::South, Side::North];
    for (i, b) in bots.iter_mut().enumerate() {
        b.new_game(
            options,
            sides[i],
            seed.wrapping_mul(2).wrapping_add(i as u64),
        );
    }
    let south_layout = bots[0].deploy().map_err(|e| (Side::South, e))?;
    let north_layout = bots[1].deploy().map_err(|e| (Side::North, e))?;
    let mut pos = Position::new(*options, &south_layout, &north_layout)
        .map_err(|e| (Side::South, BotError(format!("layouts refused: {e}"))))?;
    while !pos.is_over() {
        let me = pos.to_move();
        let view = pos.view(mode, Observer::Seat(me));
        let action = bots[me as usize]
            .choose(&view, budget)
            .map_err(|e| (me, e))?;
        let step = pos
            .apply(action)
            .map_err(|e| (me, BotError(format!("illegal action {action}: {e}"))))?;
        for (i, b) in bots.iter_mut().enumerate() {
            let obs = Observer::Seat(sides[i]);
            let events: Vec<Event> = events_for(obs, step.events.as_slice()).collect();
            b.observe(&events, &pos.view(mode, obs));
        }
    }
    Ok(match pos.status() {
        Status::Won { winner, .. } => LsaResult::Win(winner),
        _ => LsaResult::Draw,
    })
}

/// The first bot's score over `games` games, seats alternating (win 1, draw ½), with the
/// game counts (wins, draws, losses).
pub fn score(
    first: &mut dyn LsaBot,
    second: &mut dyn LsaBot,
    options: &Options,
    mode: Mode,
    games: u32,
    seed: u64,
    budget: Budget,
) -> Result<(f64, [u32; 3]), (Side, BotError)> {
    let mut tally = [0u32; 3];
    for g in 0..games {
        let first_south = g % 2 == 0;
        let game_seed = seed.wrapping_add(u64::from(g));
        let result = if first_south {
            play_game(
                [&mut *first, &mut *second],
                options,
                mode,
                game_seed,
                budget,
            )?
        } else {
            play_game(
                [&mut *second, &mut *first],
                options,
                mode,
                game_seed,
                budget,
            )?
        };
        let first_side = if first_south {
            Side::South
        } else {
            Side::North
        };
        match result {
            LsaResult::Win(s) if s == first_side => tally[0] += 1,
            LsaResult::Draw => tally[1] += 1,
            LsaResult::Win(_) => tally[2] += 1,
        }
    }
    let s = (f64::from(tally[0]) + 0.5 * f64::from(tally[1])) / f64::from(games.max(1));
    Ok((s, tally))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsa::{LsaHeuristicBot, LsaRandomBot};

    /// The heuristic beats the random player clearly over seeded games of both piece sets.
    #[test]
    fn heuristic_beats_random() {
        for set in junqi_core::lsa::PieceSet::ALL {
            let options = Options {
                piece_set: set,
                ..Options::default()
            };
            let (s, tally) = score(
                &mut LsaHeuristicBot::default(),
                &mut LsaRandomBot::default(),
                &options,
                Mode::Dark,
                20,
                11,
                Budget::Nodes(1),
            )
            .unwrap();
            assert!(
                s >= 0.8,
                "{set:?}: heuristic scored {s} {tally:?} against random"
            );
        }
    }
}
