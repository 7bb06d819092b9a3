//! Square names and the text form of actions (RULES §11): a move is `<from>-<to>` (`a2-a6`,
//! `g14-e11`), a flip is `flip <square>` (`flip b3`).

use crate::event::Action;
use crate::topology::{Square, Topology};

/// The name of a square (`a1`), or `?<index>` for an index that is not on the board (never
/// panics, so that even a malformed [`crate::Setup`] can be written out).
pub fn square_name(topo: &Topology, sq: Square) -> String {
    if sq.index() < topo.len() {
        topo.name(sq).to_string()
    } else {
        format!("?{}", sq.0)
    }
}

/// The square with this exact name on the board (`a1`, `g14`). Only the canonical spelling is
/// accepted: lower-case file, rank without sign or leading zero.
pub fn parse_square(topo: &Topology, name: &str) -> Result<Square, String> {
    match topo.parse_square(name) {
        Some(sq) if topo.name(sq) == name => Ok(sq),
        _ => Err(format!(
            "unknown square {name:?} on the {} board",
            topo.board
        )),
    }
}

/// The text form of an action: `a2-a6` for a move, `flip b3` for a flip.
pub fn action_to_text(topo: &Topology, action: Action) -> String {
    match action {
        Action::Move { from, to } => {
            format!("{}-{}", square_name(topo, from), square_name(topo, to))
        }
        Action::Flip(at) => format!("flip {}", square_name(topo, at)),
    }
}

/// Parse the text form of an action (`a2-a6`, `flip b3`; surrounding white space is ignored).
/// Errors name the square or text at fault. Only the syntax is checked here: whether the action
/// is legal is the referee's business ([`crate::Position::check`]).
pub fn action_from_text(topo: &Topology, text: &str) -> Result<Action, String> {
    let s = text.trim();
    if s.is_empty() {
        return Err("empty action (expected <from>-<to> such as a2-a6, or flip <square>)".into());
    }
    if let Some(rest) = s.strip_prefix("flip") {
        let square = rest.trim_start();
        if square.len() == rest.len() || square.is_empty() {
            return Err(format!(
                "bad action {s:?}: a flip is written flip <square>, e.g. flip b3"
            ));
        }
        return parse_square(topo, square).map(Action::Flip);
    }
    let Some((from, to)) = s.split_once('-') else {
        return Err(format!(
            "bad action {s:?} (expected <from>-<to> such as a2-a6, or flip <square>)"
        ));
    };
    let from = parse_square(topo, from)?;
    let to = parse_square(topo, to)?;
    Ok(Action::Move { from, to })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::BoardKind;

    #[test]
    fn actions_round_trip_and_errors_name_the_square() {
        let two = Topology::get(BoardKind::TwoPlayer, true);
        let four = Topology::get(BoardKind::FourPlayer, true);
        let a = action_from_text(two, "a2-a6").unwrap();
        assert_eq!(action_to_text(two, a), "a2-a6");
        let a = action_from_text(four, " g14-e11 ").unwrap();
        assert_eq!(action_to_text(four, a), "g14-e11");
        let f = action_from_text(two, "flip b3").unwrap();
        assert_eq!(f, Action::Flip(two.parse_square("b3").unwrap()));
        assert_eq!(action_to_text(two, f), "flip b3");
        for (text, needle) in [
            ("a2-z9", "\"z9\""),
            ("a0-a1", "\"a0\""),
            ("g14-e11", "\"g14\""),
            ("flip q1", "\"q1\""),
            ("flipb3", "flip <square>"),
            ("flip", "flip <square>"),
            ("a2a6", "<from>-<to>"),
            ("a2-a6-a7", "\"a6-a7\""),
            ("a+2-a6", "\"a+2\""),
            ("A2-a6", "\"A2\""),
            ("", "empty"),
        ] {
            let e = action_from_text(two, text).unwrap_err();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
        assert!(action_from_text(four, "a1-a2")
            .unwrap_err()
            .contains("four_player"));
    }

    #[test]
    fn every_square_name_parses_back() {
        for topo in [
            Topology::get(BoardKind::TwoPlayer, true),
            Topology::get(BoardKind::FourPlayer, true),
        ] {
            for sq in topo.squares() {
                assert_eq!(parse_square(topo, topo.name(sq)), Ok(sq));
            }
            assert_eq!(square_name(topo, Square(200)), "?200");
        }
    }
}
