//! Arbitrary bytes as a game record (text form): round trips through text and JSON, replay,
//! and the legal actions of the final position.
#![no_main]

use junqi_core::record::{Game, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::from_text(text) else {
        return;
    };
    assert_eq!(Record::from_text(&record.to_text()).as_ref(), Ok(&record));
    assert_eq!(Record::from_json(&record.to_json()).as_ref(), Ok(&record));
    if let Ok(end) = record.replay() {
        let game = Game::from_record(record).expect("a record that replays makes a game");
        assert_eq!(game.position(), &end);
        if !end.is_over() {
            junqi_fuzz::check_position(&end);
        }
    }
});
