//! Every example of `docs/formats.md` whose fenced block is marked `junqi-…` is read back here:
//! positions (JSON and text), step results, deployments, actions and records (text and JSON).
//! Blocks marked `canonical` must be exactly what the library writes; step results must be
//! what the referee gives; records must replay (with their stated result).

use junqi_core::json::{
    position_from_json_str, position_to_json, step_result_from_json, step_result_json,
};
use junqi_core::notation::action_from_text;
use junqi_core::record::Record;
use junqi_core::text::{position_from_text, position_to_text};
use junqi_core::*;
use serde_json::Value;
use std::collections::HashMap;

struct Block {
    line: usize,
    lang: String,
    kind: String,
    attrs: HashMap<String, String>,
    flags: Vec<String>,
    body: String,
}

fn blocks() -> Vec<Block> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/formats.md");
    let doc = std::fs::read_to_string(path).expect("docs/formats.md");
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        if let Some(info) = line.strip_prefix("```") {
            if let Some(b) = current.take() {
                out.push(b);
                continue;
            }
            let words: Vec<&str> = info.split_whitespace().collect();
            let mut b = Block {
                line: i + 1,
                lang: words.first().unwrap_or(&"").to_string(),
                kind: words.get(1).unwrap_or(&"").to_string(),
                attrs: HashMap::new(),
                flags: Vec::new(),
                body: String::new(),
            };
            for w in words.iter().skip(2) {
                match w.split_once('=') {
                    Some((k, v)) => {
                        b.attrs.insert(k.to_string(), v.to_string());
                    }
                    None => b.flags.push(w.to_string()),
                }
            }
            current = Some(b);
        } else if let Some(b) = current.as_mut() {
            b.body.push_str(line);
            b.body.push('\n');
        }
    }
    assert!(current.is_none(), "unclosed code block in docs/formats.md");
    out.into_iter()
        .filter(|b| b.kind.starts_with("junqi-"))
        .collect()
}

fn parse_position(b: &Block) -> Position {
    match b.lang.as_str() {
        "json" => position_from_json_str(&b.body),
        _ => position_from_text(b.body.trim()),
    }
    .unwrap_or_else(|e| panic!("docs/formats.md line {}: {e}", b.line))
}

#[test]
fn every_example_in_the_formats_doc_is_right() {
    let blocks = blocks();
    let mut ids: HashMap<String, Position> = HashMap::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for b in &blocks {
        let at = format!("docs/formats.md line {}", b.line);
        *counts.entry(format!("{} {}", b.lang, b.kind)).or_default() += 1;
        match b.kind.as_str() {
            "junqi-position" => {
                let p = parse_position(b);
                if b.flags.iter().any(|f| f == "canonical") {
                    if b.lang == "json" {
                        let v: Value = serde_json::from_str(&b.body).unwrap();
                        assert_eq!(position_to_json(&p), v, "{at}");
                    } else {
                        assert_eq!(position_to_text(&p), b.body.trim(), "{at}");
                    }
                }
                if let Some(id) = b.attrs.get("id") {
                    ids.insert(id.clone(), p);
                }
            }
            "junqi-step" => {
                let v: Value =
                    serde_json::from_str(&b.body).unwrap_or_else(|e| panic!("{at}: {e}"));
                step_result_from_json(&v).unwrap_or_else(|e| panic!("{at}: {e}"));
                let mut pos = ids[&b.attrs["from"]].clone();
                let action = action_from_text(pos.topology(), &b.attrs["action"]).unwrap();
                let mut events = Vec::new();
                pos.play(action, &mut events).unwrap();
                assert_eq!(step_result_json(&pos, &events), v, "{at}");
            }
            "junqi-deployment" => {
                let d =
                    Deployment::from_text(b.body.trim()).unwrap_or_else(|e| panic!("{at}: {e}"));
                for board in [BoardKind::TwoPlayer, BoardKind::FourPlayer] {
                    for seat in 0..board.seats() as Seat {
                        d.validate(board, seat).unwrap();
                    }
                }
                assert_eq!(d.to_string(), b.body.trim(), "{at}");
            }
            "junqi-actions" => {
                for line in b.body.lines() {
                    let on = |board| action_from_text(Topology::get(board, true), line).is_ok();
                    assert!(
                        on(BoardKind::TwoPlayer) || on(BoardKind::FourPlayer),
                        "{at}: {line}"
                    );
                }
            }
            "junqi-record" => {
                let r = if b.lang == "json" {
                    Record::from_json_str(&b.body)
                } else {
                    Record::from_text(&b.body)
                }
                .unwrap_or_else(|e| panic!("{at}: {e}"));
                r.replay().unwrap_or_else(|e| panic!("{at}: {e}"));
                assert!(r.result.is_some(), "{at}: the examples state their result");
                assert_eq!(Record::from_text(&r.to_text()).unwrap(), r);
                if b.lang == "json" {
                    let v: Value = serde_json::from_str(&b.body).unwrap();
                    assert_eq!(r.to_json(), v, "{at}: not what Record::to_json writes");
                }
            }
            "junqi-lsa-position" => {
                let (mode, p) = junqi_core::lsa::json::position_from_json_str(&b.body)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                let v: Value = serde_json::from_str(&b.body).unwrap();
                assert_eq!(
                    junqi_core::lsa::json::position_to_json(mode, &p),
                    v,
                    "{at}: not what lsa::json::position_to_json writes"
                );
            }
            other => panic!("{at}: unknown example kind {other}"),
        }
    }
    for (kind, min) in [
        ("json junqi-position", 2),
        ("text junqi-position", 4),
        ("json junqi-step", 1),
        ("text junqi-deployment", 1),
        ("text junqi-record", 3),
        ("json junqi-record", 1),
    ] {
        assert!(
            counts.get(kind).copied().unwrap_or(0) >= min,
            "fewer than {min} examples of {kind}"
        );
    }
}
