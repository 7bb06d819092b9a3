//! One WebSocket connection: validates every frame, rate-limits, and forwards to its table.

use crate::app::App;
use crate::protocol::{error_frame, parse_client, ClientMsg};
use crate::table::Cmd;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::mpsc;

/// A token bucket.
struct Bucket {
    tokens: f64,
    burst: f64,
    rate: f64,
    last: Instant,
}

impl Bucket {
    fn new(burst: f64, rate: f64) -> Bucket {
        Bucket {
            tokens: burst,
            burst,
            rate,
            last: Instant::now(),
        }
    }
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Frames refused by the rate limit before the connection is closed.
const MAX_VIOLATIONS: u32 = 200;

/// Serve one connection to table `table_id`.
pub(crate) async fn serve(app: Arc<App>, table_id: String, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(1024);
    let (closed_tx, mut closed_rx) = tokio::sync::oneshot::channel::<()>();
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m)).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
        let _ = closed_tx.send(());
    });
    let weak = tx.downgrade();
    let mut strong = Some(tx);
    let say = |reason: &str, id: Option<&serde_json::Value>| {
        if let Some(t) = weak.upgrade() {
            let _ = t.try_send(Utf8Bytes::from(error_frame(reason, id)));
        }
    };
    let conn = app.next_conn_id();
    let mut bucket = Bucket::new(app.settings.rate_burst, app.settings.rate_per_sec);
    let mut violations = 0u32;
    let mut joined: Option<crate::table::TableHandle> = None;
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = &mut closed_rx => break,
        };
        let Some(Ok(msg)) = msg else { break };
        let frame = match msg {
            Message::Text(t) => t,
            Message::Binary(_) => {
                say("binary frames are not accepted: send JSON text", None);
                continue;
            }
            Message::Close(_) => break,
            _ => continue,
        };
        if !bucket.take() {
            violations += 1;
            if violations > MAX_VIOLATIONS {
                break;
            }
            say("rate limited", None);
            continue;
        }
        let req = match parse_client(frame.as_str()) {
            Ok(r) => r,
            Err((reason, id)) => {
                say(&reason, id.as_ref());
                continue;
            }
        };
        match (&joined, req.msg) {
            (
                None,
                ClientMsg::Hello {
                    session,
                    token,
                    last_v,
                },
            ) => {
                let player = match &session {
                    Some(s) => app.player_by_session(s).await,
                    None => None,
                };
                let Some(tx) = strong.take() else { break };
                let sent = app
                    .send_to_table(&table_id, || Cmd::Hello {
                        conn,
                        tx: tx.clone(),
                        player: player.clone(),
                        token: token.clone(),
                        last_v,
                    })
                    .await;
                if sent.is_none() {
                    let _ = tx.try_send(Utf8Bytes::from(error_frame(
                        "no such table",
                        req.id.as_ref(),
                    )));
                    drop(tx);
                    break;
                }
                joined = sent;
            }
            (None, _) => say("send hello first", req.id.as_ref()),
            (Some(h), msg) => {
                if h.tx
                    .send(Cmd::Msg {
                        conn,
                        msg,
                        id: req.id,
                    })
                    .await
                    .is_err()
                {
                    break;
                }
            }
        }
    }
    if let Some(h) = joined {
        let _ = h.tx.send(Cmd::Closed { conn }).await;
    }
    drop(strong);
    drop(weak);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), writer).await;
}
