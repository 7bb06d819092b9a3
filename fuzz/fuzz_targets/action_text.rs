//! Arbitrary bytes as an action (`a2-a6`, `flip b3`) or a record entry, on either board (the
//! first byte picks the board).
#![no_main]

use junqi_core::notation::{action_from_text, action_to_text};
use junqi_core::record::Entry;
use junqi_core::{BoardKind, Topology};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let board = if pick & 1 == 0 {
        BoardKind::TwoPlayer
    } else {
        BoardKind::FourPlayer
    };
    let topo = Topology::get(board, pick & 2 == 0);
    if let Ok(action) = action_from_text(topo, text) {
        assert_eq!(
            action_from_text(topo, &action_to_text(topo, action)),
            Ok(action)
        );
    }
    if let Ok(entry) = Entry::from_text(topo, text) {
        assert_eq!(Entry::from_text(topo, &entry.to_text(topo)), Ok(entry));
    }
});
