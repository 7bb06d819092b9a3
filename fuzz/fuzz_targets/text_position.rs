//! Arbitrary bytes as the one-line position text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = junqi_core::text::position_from_text(text) {
        junqi_fuzz::check_position(&pos);
    }
});
