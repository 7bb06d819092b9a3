//! The WebSocket frames of `docs/server-protocol.md`: strict parsing of client frames (never
//! panics, every failure is a reason) and builders of server frames.

use serde_json::{json, Map, Value};

/// The largest client frame accepted, in bytes.
pub const MAX_FRAME: usize = 16 * 1024;
const MAX_TEXT: usize = 256;

/// A client frame.
#[derive(Clone, Debug, PartialEq)]
pub enum ClientMsg {
    /// The first frame of a connection.
    Hello {
        /// A session token (who the person is).
        session: Option<String>,
        /// A seat token (which seat this connection acts for).
        token: Option<String>,
        /// The last event version the client has.
        last_v: Option<u64>,
    },
    /// Sit at an empty seat.
    TakeSeat {
        /// The seat.
        seat: u8,
        /// A display name (for people without an account).
        name: Option<String>,
    },
    /// Host: put a bot at a seat.
    AddBot {
        /// The seat.
        seat: u8,
        /// The bot's name (`None`: the default bot).
        bot: Option<String>,
    },
    /// Host: remove a bot from a seat.
    RemoveBot {
        /// The seat.
        seat: u8,
    },
    /// Host: start the game.
    Start,
    /// Submit a layout (deployment text form).
    Deploy {
        /// The layout.
        layout: String,
    },
    /// An action in text (`a2-a6`, `flip b3`).
    Act {
        /// The action.
        action: String,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept the draw offer.
    AcceptDraw,
    /// Decline the draw offer.
    DeclineDraw,
    /// Leave the game for good.
    Leave,
    /// Ping (echoed).
    Ping {
        /// Any value, echoed in the pong.
        t: Value,
    },
}

/// A parsed client frame and its request id.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The message.
    pub msg: ClientMsg,
    /// The client's request id (a string or number), echoed in the answer.
    pub id: Option<Value>,
}

fn opt_text(o: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.len() <= MAX_TEXT => Ok(Some(s.clone())),
        Some(Value::String(_)) => Err(format!("field {key:?} is too long")),
        Some(_) => Err(format!("field {key:?} must be a string")),
    }
}

fn text(o: &Map<String, Value>, key: &str) -> Result<String, String> {
    opt_text(o, key)?.ok_or_else(|| format!("missing field {key:?}"))
}

fn seat(o: &Map<String, Value>) -> Result<u8, String> {
    match o.get("seat").and_then(Value::as_u64) {
        Some(s) if s < 4 => Ok(s as u8),
        Some(s) => Err(format!("seat {s} does not exist")),
        None => Err("field \"seat\" must be a seat number".into()),
    }
}

/// Parse a client frame. The id (if any) is returned even when the rest is bad, so that the
/// error can echo it.
pub fn parse_client(text_frame: &str) -> Result<Request, (String, Option<Value>)> {
    if text_frame.len() > MAX_FRAME {
        return Err(("frame too large".into(), None));
    }
    let v: Value =
        serde_json::from_str(text_frame).map_err(|e| (format!("not JSON: {e}"), None))?;
    let Value::Object(o) = v else {
        return Err(("a frame must be a JSON object".into(), None));
    };
    let id = match o.get("id") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Number(_)) => Some(v.clone()),
        Some(Value::String(s)) if s.len() <= 64 => Some(Value::String(s.clone())),
        Some(_) => {
            return Err((
                "field \"id\" must be a number or a short string".into(),
                None,
            ))
        }
    };
    let fail = |e: String| (e, id.clone());
    let kind = match o.get("type") {
        Some(Value::String(s)) => s.as_str(),
        _ => return Err(fail("missing field \"type\"".into())),
    };
    let msg = match kind {
        "hello" => ClientMsg::Hello {
            session: opt_text(&o, "session").map_err(fail)?,
            token: opt_text(&o, "token").map_err(fail)?,
            last_v: match o.get("last_v") {
                None | Some(Value::Null) => None,
                Some(v) => Some(
                    v.as_u64()
                        .ok_or_else(|| fail("field \"last_v\" must be a version number".into()))?,
                ),
            },
        },
        "take_seat" => ClientMsg::TakeSeat {
            seat: seat(&o).map_err(fail)?,
            name: opt_text(&o, "name").map_err(fail)?,
        },
        "add_bot" => ClientMsg::AddBot {
            seat: seat(&o).map_err(fail)?,
            bot: opt_text(&o, "bot").map_err(fail)?,
        },
        "remove_bot" => ClientMsg::RemoveBot {
            seat: seat(&o).map_err(fail)?,
        },
        "start" => ClientMsg::Start,
        "deploy" => ClientMsg::Deploy {
            layout: text(&o, "layout").map_err(fail)?,
        },
        "act" => ClientMsg::Act {
            action: text(&o, "action").map_err(fail)?,
        },
        "resign" => ClientMsg::Resign,
        "offer_draw" => ClientMsg::OfferDraw,
        "accept_draw" => ClientMsg::AcceptDraw,
        "decline_draw" => ClientMsg::DeclineDraw,
        "leave" => ClientMsg::Leave,
        "ping" => {
            let t = o.get("t").cloned().unwrap_or(Value::Null);
            if t.to_string().len() > 64 {
                return Err(fail("field \"t\" is too large".into()));
            }
            ClientMsg::Ping { t }
        }
        other => {
            let shown: String = other.chars().take(32).collect();
            return Err(fail(format!("unknown frame type {shown:?}")));
        }
    };
    Ok(Request { msg, id })
}

/// An error frame.
pub fn error_frame(reason: &str, id: Option<&Value>) -> String {
    let mut v = json!({"type": "error", "reason": reason});
    if let Some(id) = id {
        v["id"] = id.clone();
    }
    v.to_string()
}

/// An ack frame.
pub fn ack_frame(id: &Value) -> String {
    json!({"type": "ack", "id": id}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(
            parse_client(r#"{"type":"act","action":"a2-a6","id":3}"#).unwrap(),
            Request {
                msg: ClientMsg::Act {
                    action: "a2-a6".into()
                },
                id: Some(json!(3))
            }
        );
        assert!(parse_client("[]").is_err());
        assert!(parse_client("{").is_err());
        assert!(parse_client(r#"{"type":"take_seat","seat":9}"#).is_err());
        assert!(parse_client(r#"{"type":"take_seat","seat":-1}"#).is_err());
        assert!(parse_client(r#"{"type":"act","action":5}"#).is_err());
        assert!(parse_client(r#"{"type":"nope"}"#).is_err());
        let long = format!(r#"{{"type":"act","action":"{}"}}"#, "x".repeat(1000));
        assert!(parse_client(&long).is_err());
        let (_, id) = parse_client(r#"{"type":"nope","id":"r1"}"#).unwrap_err();
        assert_eq!(id, Some(json!("r1")));
    }
}
