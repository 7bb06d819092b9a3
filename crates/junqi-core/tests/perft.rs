//! Runs the perft suite in `tests/perft/suite.perft`: every count must match, and the counts of
//! depth 1 and 2 must also match the slow reference generator.

mod reference;

use junqi_core::playout::perft;
use junqi_core::text::position_from_text;

#[test]
fn perft_suite() {
    let suite = include_str!("perft/suite.perft");
    let mut pos = None;
    let mut id = String::new();
    let mut checked = 0;
    for line in suite.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "id" => id = rest.to_string(),
            "pos" => pos = Some(position_from_text(rest).unwrap_or_else(|e| panic!("{id}: {e}"))),
            "perft" => {
                let (d, n) = rest.split_once(' ').expect("depth and count");
                let (d, n): (u32, u64) = (d.parse().unwrap(), n.parse().unwrap());
                let p = pos.as_ref().expect("pos before perft");
                assert_eq!(perft(p, d), n, "{id} depth {d}");
                if d <= 2 {
                    assert_eq!(
                        reference::reference_perft(p, d),
                        n,
                        "{id} depth {d} (reference)"
                    );
                }
                checked += 1;
            }
            other => panic!("unknown line {other}"),
        }
    }
    assert!(checked >= 30, "only {checked} counts checked");
}
