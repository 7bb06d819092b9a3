//! What nodes say to each other over NATS, and on which subjects.
//!
//! - `junqi.node.<node>.table`: commands for the tables `<node>` runs ([`ToTable`], JSON), from
//!   the node holding the client's WebSocket. `hello` and `summary` are requests (the reply says
//!   whether the node runs the table); the rest are published, in order after their `hello`.
//! - `junqi.conn.<node>`: frames for the connections `<node>` holds: 8 bytes of connection id
//!   (big-endian) then the frame's text; no text means the table let the connection go.
//! - `junqi.alive.<node>`: a node's heartbeat, every [`HEARTBEAT_MS`]: 8 bytes, the
//!   incarnation of the process (random at its start, big-endian).
//! - `junqi.usage`: rate-limit usage a node counted, for the others to count too ([`Usage`],
//!   JSON, every [`USAGE_MS`] when there is any).

use crate::app::Player;
use crate::protocol::ClientMsg;
use bytes::{BufMut, Bytes, BytesMut};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How often a node says it is alive.
pub const HEARTBEAT_MS: u64 = 500;
/// A node not heard from for this long is taken for dead: its connections are let go.
pub const DEAD_AFTER_MS: u64 = 2_500;

/// The subject of commands for `node`'s tables.
pub fn table_subject(node: &str) -> String {
    format!("junqi.node.{node}.table")
}

/// The subject of frames for `node`'s connections.
pub fn conn_subject(node: &str) -> String {
    format!("junqi.conn.{node}")
}

/// The subject of `node`'s heartbeat.
pub fn alive_subject(node: &str) -> String {
    format!("junqi.alive.{node}")
}

/// Every node's heartbeat.
pub const ALIVE_ALL: &str = "junqi.alive.*";

/// The subject of rate-limit usage.
pub const USAGE: &str = "junqi.usage";
/// How often a node tells the others what its clients used of the shared rate budgets: a
/// client spreading its frames over several nodes gets at most one budget plus what each node
/// lets through in this time.
pub const USAGE_MS: u64 = 250;

/// What one node's clients used of the shared budgets since its last report: per key, how
/// many frames ([`crate::App::frame_budget`]) and table creations
/// ([`crate::App::table_budget`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// The reporting node (which skips its own report).
    pub from: String,
    /// Frames per key.
    #[serde(default)]
    pub frames: Vec<(String, u32)>,
    /// Table creations per key.
    #[serde(default)]
    pub tables: Vec<(String, u32)>,
}

/// A command from a client's node to a table's node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToTable {
    /// The table.
    pub table: String,
    /// The node holding the connection.
    pub from: String,
    /// The connection's id on that node.
    pub conn: u64,
    /// What it says.
    #[serde(flatten)]
    pub what: What,
}

/// What a connection says to its table, as [`crate::table::Cmd`] says it inside one node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum What {
    /// The connection joins (request: the reply is [`HelloReply`]).
    Hello {
        /// The person, if signed in.
        player: Option<Player>,
        /// A seat token.
        token: Option<String>,
        /// The last event version the client has.
        last_v: Option<u64>,
    },
    /// The connection now acts as this person.
    Identify {
        /// The person.
        player: Player,
    },
    /// A client message.
    Msg {
        /// The message.
        msg: ClientMsg,
        /// Its id, for the ack.
        id: Option<Value>,
    },
    /// The connection closed.
    Closed,
    /// The table's summary (request: the reply is [`HelloReply`] with it).
    Summary,
}

/// The answer to a `hello` or `summary` request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HelloReply {
    /// The node runs the table (and this is its summary).
    Here {
        /// The table's summary as the lobby shows it.
        summary: Value,
    },
    /// The node does not run the table (any more): ask the database again.
    NotHere,
    /// There is no such table.
    NoTable,
}

/// A heartbeat saying the process's `incarnation`.
pub fn alive_payload(incarnation: u64) -> Bytes {
    Bytes::copy_from_slice(&incarnation.to_be_bytes())
}

/// The incarnation a heartbeat says, if it says one (8 bytes).
pub fn parse_alive_payload(b: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(b.try_into().ok()?))
}

/// A frame (or, with `None`, the end) for connection `conn`, as published.
pub fn conn_payload(conn: u64, frame: Option<&str>) -> Bytes {
    let text = frame.unwrap_or("");
    let mut b = BytesMut::with_capacity(8 + text.len());
    b.put_u64(conn);
    b.put_slice(text.as_bytes());
    b.freeze()
}

/// The connection and the frame (`None`: the end) of a published payload; `None` if it is
/// too short or not text.
pub fn parse_conn_payload(b: &[u8]) -> Option<(u64, Option<&str>)> {
    let id = u64::from_be_bytes(b.get(..8)?.try_into().ok()?);
    let text = std::str::from_utf8(&b[8..]).ok()?;
    Some((id, (!text.is_empty()).then_some(text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn heartbeats_say_the_incarnation() {
        assert_eq!(parse_alive_payload(&alive_payload(42)), Some(42));
        assert_eq!(parse_alive_payload(b""), None);
        assert_eq!(parse_alive_payload(b"123456789"), None);
    }

    #[test]
    fn usage_round_trips_and_old_reports_read() {
        let u = Usage {
            from: "a".into(),
            frames: vec![("addr:127.0.0.1".into(), 4)],
            tables: vec![("tables:127.0.0.1".into(), 1)],
        };
        let back: Usage = serde_json::from_slice(&serde_json::to_vec(&u).unwrap()).unwrap();
        assert_eq!(back, u);
        // A report without one of the lists (a node of another version) is read as empty.
        let back: Usage = serde_json::from_str(r#"{"from":"b","frames":[["k",2]]}"#).unwrap();
        assert_eq!(back.tables, vec![]);
        assert_eq!(back.frames, vec![("k".to_string(), 2)]);
    }

    #[test]
    fn commands_round_trip() {
        let msgs = [
            What::Hello {
                player: Some(Player {
                    id: "p_1".into(),
                    name: "小明".into(),
                    guest: true,
                }),
                token: Some("t".into()),
                last_v: Some(7),
            },
            What::Msg {
                msg: ClientMsg::Act {
                    action: "a2-a3".into(),
                    action_id: Some("m4".into()),
                },
                id: Some(json!(4)),
            },
            What::Msg {
                msg: ClientMsg::Start {},
                id: None,
            },
            What::Msg {
                msg: ClientMsg::Ping { t: json!([1, "x"]) },
                id: None,
            },
            What::Closed,
            What::Summary,
        ];
        for what in msgs {
            let m = ToTable {
                table: "abc".into(),
                from: "n1".into(),
                conn: 3,
                what,
            };
            let text = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<ToTable>(&text).unwrap(), m, "{text}");
        }
    }

    #[test]
    fn frames_round_trip() {
        let p = conn_payload(42, Some("{\"type\":\"events\"}"));
        assert_eq!(
            parse_conn_payload(&p),
            Some((42, Some("{\"type\":\"events\"}")))
        );
        assert_eq!(parse_conn_payload(&conn_payload(9, None)), Some((9, None)));
        assert_eq!(parse_conn_payload(b"short"), None);
        assert_eq!(parse_conn_payload(&[0, 0, 0, 0, 0, 0, 0, 1, 0xff]), None);
    }
}
