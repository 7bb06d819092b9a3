//! Arbitrary bytes as land-sea-air input (LANDSEAAIR §10): a position JSON, a seat's view JSON
//! (as an engine receives it), a game record in JSON or text, or a position JSON line followed
//! by an action text line. Whatever parses must
//! round-trip, and records must replay to what they state.
#![no_main]

use junqi_core::lsa::json::{
    position_from_json_str, position_to_json, view_from_json_str, view_to_json,
};
use junqi_core::lsa::notation::action_from_text;
use junqi_core::lsa::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((mode, pos)) = position_from_json_str(text) {
        let back = position_to_json(mode, &pos).to_string();
        assert_eq!(position_from_json_str(&back), Ok((mode, pos.clone())));
        for a in pos.legal_actions().iter() {
            let mut next = pos.clone();
            next.apply(a).expect("a legal action applies");
            assert_eq!(action_from_text(&pos, &a.to_string()), Ok(a));
        }
    }
    if let Ok(view) = view_from_json_str(text) {
        let back = view_to_json(&view).to_string();
        assert_eq!(view_from_json_str(&back).as_ref(), Ok(&view));
    }
    if let Some((line, action)) = text.split_once('\n') {
        if let Ok((_, mut pos)) = position_from_json_str(line) {
            if let Ok(a) = action_from_text(&pos, action) {
                pos.apply(a).expect("a parsed action is legal");
            }
        }
    }
    for record in [Record::from_text(text), Record::from_json_str(text)]
        .into_iter()
        .flatten()
    {
        assert_eq!(Record::from_text(&record.to_text()).as_ref(), Ok(&record));
        assert_eq!(Record::from_json(&record.to_json()).as_ref(), Ok(&record));
        let game = record.replay().expect("a record read back replays");
        let replayed = game.record();
        assert_eq!((&replayed.start, &replayed.entries), (&record.start, &record.entries));
        if record.result.is_some() {
            assert_eq!(replayed.result, record.result);
        }
    }
});
