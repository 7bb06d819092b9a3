//! Arbitrary bytes as position JSON (RULES §11.1).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = junqi_core::json::position_from_json_str(text) {
        junqi_fuzz::check_position(&pos);
    }
});
