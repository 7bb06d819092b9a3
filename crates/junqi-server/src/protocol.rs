//! The WebSocket frames of `docs/server-protocol.md`: client frames as one tagged enum parsed by
//! serde (unknown types, unknown fields and wrong types are refused with a reason that names
//! them; parsing never panics), and the ack frame.

use crate::error::Refusal;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The largest client frame accepted, in bytes. A larger one gets an `error` frame
/// (`request.frame_too_large`); one over [`MAX_KEPT_FRAME`] also closes the connection.
pub const MAX_FRAME: usize = 16 * 1024;
/// A frame over this size gets its `error` frame and the connection is closed.
pub const MAX_KEPT_FRAME: usize = 64 * 1024;
/// The largest WebSocket message read at all: beyond it the WebSocket layer drops the connection
/// without a word (it cannot read the frame to answer it).
pub const MAX_WS_MESSAGE: usize = 256 * 1024;
/// The read and write buffers of a WebSocket connection.
pub const WS_BUFFER: usize = 8 * 1024;
const MAX_TEXT: usize = 256;
/// The longest client-chosen action id.
pub const MAX_ACTION_ID: usize = 64;
/// The longest layout: a land-sea-air layout names 41 pieces (`c2=army_group_commander` …),
/// about 600 bytes.
const MAX_LAYOUT: usize = 1024;

/// A client frame.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// The first frame of a connection.
    Hello {
        /// A session token (who the person is).
        #[serde(default)]
        session: Option<String>,
        /// A seat token (which seat this connection acts for).
        #[serde(default)]
        token: Option<String>,
        /// The last event version the client has.
        #[serde(default)]
        last_v: Option<u64>,
    },
    /// Sit at an empty seat.
    TakeSeat {
        /// The seat.
        seat: u8,
        /// For a connection without a session: the name of the guest made for it (the name
        /// policy applies). A signed-in person's seat shows their own name.
        #[serde(default)]
        name: Option<String>,
    },
    /// Host: put a bot at a seat.
    AddBot {
        /// The seat.
        seat: u8,
        /// The bot's name (`None`: the default bot).
        #[serde(default)]
        bot: Option<String>,
    },
    /// Host: remove a bot from a seat.
    RemoveBot {
        /// The seat.
        seat: u8,
    },
    /// Host: start the game.
    Start {},
    /// Submit a layout (deployment text form).
    Deploy {
        /// The layout.
        layout: String,
    },
    /// An action in text (`a2-a6`, `flip b3`).
    Act {
        /// The action.
        action: String,
        /// The client's id for this action (1 to 64 letters, digits, `-`, `_`, `.`, `:`),
        /// unique within the game for its seat: an `act` resent with an id the seat's game has
        /// already applied is answered with that entry's ack again and not applied twice,
        /// across reconnects, restarts and cluster takeovers.
        #[serde(default)]
        action_id: Option<String>,
    },
    /// Resign.
    Resign {},
    /// Offer a draw.
    OfferDraw {},
    /// Accept the draw offer.
    AcceptDraw {},
    /// Decline the draw offer.
    DeclineDraw {},
    /// Leave the game for good.
    Leave {},
    /// A chat message: free `text`, or the id of a quick `phrase` (one of the two).
    Chat {
        /// Free text (at most 200 characters once hidden characters are removed).
        #[serde(default)]
        text: Option<String>,
        /// A quick phrase id (`hello`, `good_move`, …).
        #[serde(default)]
        phrase: Option<String>,
    },
    /// After the game: ask for a rematch (same settings and players, colours swapped).
    Rematch {},
    /// Ping (echoed).
    Ping {
        /// Any small value, echoed in the pong.
        #[serde(default)]
        t: Value,
    },
}

impl ClientMsg {
    /// The frame's `type`, as sent (a fixed set: the metrics label actions with it).
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMsg::Hello { .. } => "hello",
            ClientMsg::TakeSeat { .. } => "take_seat",
            ClientMsg::AddBot { .. } => "add_bot",
            ClientMsg::RemoveBot { .. } => "remove_bot",
            ClientMsg::Start {} => "start",
            ClientMsg::Deploy { .. } => "deploy",
            ClientMsg::Act { .. } => "act",
            ClientMsg::Resign {} => "resign",
            ClientMsg::OfferDraw {} => "offer_draw",
            ClientMsg::AcceptDraw {} => "accept_draw",
            ClientMsg::DeclineDraw {} => "decline_draw",
            ClientMsg::Leave {} => "leave",
            ClientMsg::Chat { .. } => "chat",
            ClientMsg::Rematch {} => "rematch",
            ClientMsg::Ping { .. } => "ping",
        }
    }

    /// The texts a frame carries, to check their length.
    fn texts(&self) -> Vec<(&'static str, &str)> {
        let mut v = Vec::new();
        match self {
            ClientMsg::Hello { session, token, .. } => {
                if let Some(s) = session {
                    v.push(("session", s.as_str()));
                }
                if let Some(t) = token {
                    v.push(("token", t.as_str()));
                }
            }
            ClientMsg::AddBot { bot: Some(b), .. } => v.push(("bot", b.as_str())),
            ClientMsg::TakeSeat { name: Some(n), .. } => v.push(("name", n.as_str())),
            ClientMsg::Deploy { layout } => v.push(("layout", layout.as_str())),
            // `action_id` has its own, stricter rule (parse_client).
            ClientMsg::Act { action, .. } => v.push(("action", action.as_str())),
            // A chat text is measured in characters by the table (200 Chinese characters are
            // 600 bytes); the frame limit bounds it here.
            ClientMsg::Chat {
                phrase: Some(p), ..
            } => v.push(("phrase", p.as_str())),
            _ => {}
        }
        v
    }
}

/// A parsed client frame and its request id.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The message.
    pub msg: ClientMsg,
    /// The client's request id (a string or number), echoed in the answer.
    pub id: Option<Value>,
}

/// Parse a client frame. The id (if any) is returned even when the rest is bad, so that the
/// error can echo it.
pub fn parse_client(text_frame: &str) -> Result<Request, (Refusal, Option<Value>)> {
    if text_frame.len() > MAX_FRAME {
        return Err((Refusal::FrameTooLarge { limit: MAX_FRAME }, None));
    }
    let bad = |m: String| Refusal::BadRequest(m);
    let v: Value =
        serde_json::from_str(text_frame).map_err(|e| (bad(format!("not JSON: {e}")), None))?;
    let Value::Object(mut o) = v else {
        return Err((bad("a frame must be a JSON object".into()), None));
    };
    let id = match o.remove("id") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Number(_)) => Some(v),
        Some(Value::String(s)) if s.len() <= 64 => Some(Value::String(s)),
        Some(_) => {
            return Err((
                bad("field \"id\" must be a number or a string of at most 64 bytes".into()),
                None,
            ))
        }
    };
    if !matches!(o.get("type"), Some(Value::String(_))) {
        return Err((bad("missing field \"type\" (a string)".into()), id));
    }
    let msg: ClientMsg = serde_json::from_value(Value::Object(o))
        .map_err(|e| (bad(format!("bad frame: {e}")), id.clone()))?;
    for (field, t) in msg.texts() {
        let max = if field == "layout" {
            MAX_LAYOUT
        } else {
            MAX_TEXT
        };
        if t.len() > max {
            return Err((
                bad(format!("field {field:?} is too long (at most {max} bytes)")),
                id,
            ));
        }
    }
    if let ClientMsg::Act {
        action_id: Some(a), ..
    } = &msg
    {
        let fine = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':');
        if a.is_empty() || a.len() > MAX_ACTION_ID || !a.chars().all(fine) {
            return Err((
                bad(format!(
                    "field \"action_id\" must be 1 to {MAX_ACTION_ID} letters, digits, '-', '_', '.' or ':'"
                )),
                id,
            ));
        }
    }
    if let ClientMsg::Ping { t } = &msg {
        if t.to_string().len() > 64 {
            return Err((
                bad("field \"t\" is too large (at most 64 bytes of JSON)".into()),
                id,
            ));
        }
    }
    Ok(Request { msg, id })
}

/// An ack frame.
pub fn ack_frame(id: &Value) -> String {
    json!({"type": "ack", "id": id}).to_string()
}

/// The ack of an `act` that carried an `action_id`: sent whether or not the frame had a
/// request `id` (then `null`), with the event version `v` of the entry the action made, and
/// `repeat: true` when it was a resend of an action already applied (nothing was applied now).
pub fn act_ack_frame(id: Option<&Value>, action_id: &str, v: u64, repeat: bool) -> String {
    json!({"type": "ack", "id": id, "action_id": action_id, "v": v, "repeat": repeat}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(s: &str) -> String {
        parse_client(s).unwrap_err().0.to_string()
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            parse_client(r#"{"type":"act","action":"a2-a6","id":3}"#).unwrap(),
            Request {
                msg: ClientMsg::Act {
                    action: "a2-a6".into(),
                    action_id: None,
                },
                id: Some(json!(3))
            }
        );
        assert_eq!(
            parse_client(r#"{"type":"start"}"#).unwrap().msg,
            ClientMsg::Start {}
        );
        assert!(parse_client("[]").is_err());
        assert!(parse_client("{").is_err());
        assert!(parse_client(r#"{"type":"take_seat","seat":-1}"#).is_err());
        assert!(parse_client(r#"{"type":"take_seat","seat":1e99}"#).is_err());
        assert!(reason(r#"{"type":"act","action":5}"#).contains("invalid type"));
        assert!(reason(r#"{"type":"nope"}"#).contains("unknown variant"));
        assert!(reason(r#"{"type":"act"}"#).contains("missing field `action`"));
        let long = format!(r#"{{"type":"act","action":"{}"}}"#, "x".repeat(1000));
        assert!(reason(&long).contains("too long"));
        // A land-sea-air layout is longer than other texts may be, and still bounded.
        let layout = |n: usize| format!(r#"{{"type":"deploy","layout":"{}"}}"#, "x".repeat(n));
        assert!(parse_client(&layout(700)).is_ok());
        assert!(reason(&layout(1025)).contains("at most 1024 bytes"));
        let (_, id) = parse_client(r#"{"type":"nope","id":"r1"}"#).unwrap_err();
        assert_eq!(id, Some(json!("r1")));
    }

    #[test]
    fn action_ids_are_short_plain_texts() {
        let act = |id: &str| format!(r#"{{"type":"act","action":"a2-a6","action_id":{id}}}"#);
        assert_eq!(
            parse_client(&act(r#""m-17.b:2""#)).unwrap().msg,
            ClientMsg::Act {
                action: "a2-a6".into(),
                action_id: Some("m-17.b:2".into())
            }
        );
        for bad in ["\"\"", "\"a b\"", "\"<x>\"", "5", "\"é\""] {
            assert!(parse_client(&act(bad)).is_err(), "{bad}");
        }
        let long = format!("\"{}\"", "x".repeat(MAX_ACTION_ID + 1));
        assert!(reason(&act(&long)).contains("action_id"));
        let just = format!("\"{}\"", "x".repeat(MAX_ACTION_ID));
        assert!(parse_client(&act(&just)).is_ok());
    }

    #[test]
    fn unknown_fields_are_refused_even_on_frames_without_fields() {
        assert!(reason(r#"{"type":"act","action":"a2-a6","extra":1}"#).contains("unknown field"));
        assert!(reason(r#"{"type":"resign","seat":1}"#).contains("unknown field"));
        assert!(reason(r#"{"type":"take_seat","seat":1,"nick":"x"}"#).contains("unknown field"));
    }

    #[test]
    fn kind_is_the_frame_type() {
        let frames = [
            json!({"type": "hello"}),
            json!({"type": "take_seat", "seat": 0}),
            json!({"type": "add_bot", "seat": 1}),
            json!({"type": "remove_bot", "seat": 1}),
            json!({"type": "start"}),
            json!({"type": "deploy", "layout": "x"}),
            json!({"type": "act", "action": "a2-a6"}),
            json!({"type": "resign"}),
            json!({"type": "offer_draw"}),
            json!({"type": "accept_draw"}),
            json!({"type": "decline_draw"}),
            json!({"type": "leave"}),
            json!({"type": "chat", "phrase": "hello"}),
            json!({"type": "rematch"}),
            json!({"type": "ping"}),
        ];
        for f in frames {
            let msg = parse_client(&f.to_string()).unwrap().msg;
            assert_eq!(msg.kind(), f["type"], "{f}");
        }
    }

    #[test]
    fn oversized_frames_say_so() {
        let big = format!(r#"{{"type":"ping","t":"{}"}}"#, "x".repeat(MAX_FRAME));
        let (r, _) = parse_client(&big).unwrap_err();
        assert_eq!(r.code(), "request.frame_too_large");
    }
}
