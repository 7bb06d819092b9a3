//! Checks shared by the fuzz targets: whatever a parser accepts must survive every round trip,
//! and every legal action of it must apply.

use junqi_core::json::{
    position_from_json, position_to_json, setup_from_json, step_result_from_json, step_result_json,
};
use junqi_core::text::{position_from_text, position_to_text, setup_from_text};
use junqi_core::Position;

/// A position the parsers accepted: JSON and text round trips, then every legal action applied
/// to a copy, with the step result's JSON read back.
pub fn check_position(pos: &Position) {
    check_round_trips(pos);
    for action in pos.legal_actions() {
        let mut next = pos.clone();
        let mut events = Vec::new();
        next.play(action, &mut events)
            .expect("a legal action applies");
        let step = step_result_from_json(&step_result_json(&next, &events))
            .expect("a step result reads back");
        assert_eq!(step.position, next.to_setup());
        assert_eq!(step.events, events);
        assert_eq!(step.outcome, next.outcome());
        let setup = next.to_setup();
        assert_eq!(
            setup_from_json(&position_to_json(&next)).as_ref(),
            Ok(&setup)
        );
        assert_eq!(
            setup_from_text(&position_to_text(&next)).as_ref(),
            Ok(&setup)
        );
    }
}

/// JSON and text round trips of a valid position (compared through `to_setup`: the formats do
/// not carry announced identities or the outcome).
pub fn check_round_trips(pos: &Position) {
    let setup = pos.to_setup();
    let from_json = position_from_json(&position_to_json(pos)).expect("JSON reads back");
    assert_eq!(from_json.to_setup(), setup);
    let from_text = position_from_text(&position_to_text(pos)).expect("text reads back");
    assert_eq!(from_text.to_setup(), setup);
}
