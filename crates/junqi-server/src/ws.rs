//! One WebSocket connection: validates every frame, rate-limits, keeps the connection alive
//! with pings (and closes one that says nothing), and forwards to its table. A connection must
//! say `hello` within the hello timeout or it is closed.
//!
//! The frame rate limit is the server's [`crate::limits::RateBudget`], per client address and,
//! once the connection acts as a person, per account: all of one person's connections draw on
//! one budget, however many they open.
//!
//! When the server shuts down (see [`crate::shutdown`]) a connection stops reading at once,
//! keeps sending what its table still sends while the table finishes, and closes with code 1012
//! ("service restart") when the server says so, which browser clients take as "reconnect".

use crate::app::App;
use crate::error::{error_frame, Refusal};
use crate::metrics::ConnectionGauge;
use crate::protocol::{parse_client, ClientMsg};
use crate::shutdown::{reached, Phase};
use crate::table::Cmd;
use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Frames of one connection refused by the rate limit before that connection is closed.
const MAX_VIOLATIONS: u32 = 200;

/// What goes out on a connection: a frame, or a ping.
enum Outgoing {
    Frame(Utf8Bytes),
    Ping,
}

/// Serve one connection to table `table_id`.
pub(crate) async fn serve(app: Arc<App>, table_id: String, client: IpAddr, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Utf8Bytes>(1024);
    let (ping_tx, mut ping_rx) = mpsc::channel::<()>(1);
    let (closed_tx, mut closed_rx) = tokio::sync::oneshot::channel::<()>();
    // The connection counts as open (for the metrics, and for a shutdown that waits for every
    // close frame to go out) until its writer ends.
    let open = (
        ConnectionGauge::open(&app.metrics.websocket_connections),
        app.shutdown.track_connection(),
    );
    let mut phase = app.shutdown.subscribe();
    let writer = tokio::spawn(async move {
        let _open = open;
        let mut pinging = true;
        let mut restart = false;
        loop {
            // Frames first; the connection ends when the frame queue is closed and drained.
            let out = tokio::select! {
                biased;
                m = rx.recv() => match m { Some(m) => Outgoing::Frame(m), None => break },
                p = ping_rx.recv(), if pinging => match p {
                    Some(()) => Outgoing::Ping,
                    None => { pinging = false; continue }
                },
                _ = reached(&mut phase, Phase::Closing) => { restart = true; break }
            };
            let sent = match out {
                Outgoing::Frame(m) => sink.send(Message::Text(m)).await,
                Outgoing::Ping => sink.send(Message::Ping(Default::default())).await,
            };
            if sent.is_err() {
                break;
            }
        }
        if !restart && *phase.borrow() != Phase::Running {
            // The table let go of this connection because the server is stopping: the close
            // waits until every table has stopped and the shutdown hooks have run, so that a
            // client reconnecting at once finds its table served elsewhere (or after restart).
            reached(&mut phase, Phase::Closing).await;
            restart = true;
        }
        if restart {
            // What the table queued before it stopped (the last stored entries) goes first.
            while let Ok(m) = rx.try_recv() {
                if sink.send(Message::Text(m)).await.is_err() {
                    break;
                }
            }
            let _ = sink
                .send(Message::Close(Some(CloseFrame {
                    code: close_code::RESTART,
                    reason: Utf8Bytes::from_static("service restart"),
                })))
                .await;
        }
        let _ = sink.close().await;
        let _ = closed_tx.send(());
    });
    let weak = tx.downgrade();
    let mut strong = Some(tx);
    let say = |r: &Refusal, id: Option<&serde_json::Value>| {
        if let Some(t) = weak.upgrade() {
            let _ = t.try_send(Utf8Bytes::from(error_frame(r, id)));
        }
    };
    let settings = &app.settings;
    let conn = app.next_conn_id();
    let addr_key = format!("addr:{client}");
    // The account the connection acts as, once it has one (a session, or a guest made when it
    // takes a seat).
    let mut account_key: Option<String> = None;
    let mut violations = 0u32;
    let mut joined: Option<crate::table::TableHandle> = None;
    let mut identified = false;
    let mut player: Option<crate::app::Player> = None;
    let started = Instant::now();
    let hello_by = started + Duration::from_millis(settings.hello_timeout_ms);
    let idle = Duration::from_millis(settings.idle_timeout_ms);
    let mut last_heard = started;
    let mut stopping = app.shutdown.subscribe();
    let mut shutting_down = false;
    let mut pings = tokio::time::interval_at(
        tokio::time::Instant::from_std(started + Duration::from_millis(settings.ping_interval_ms)),
        Duration::from_millis(settings.ping_interval_ms.max(1)),
    );
    loop {
        // Before hello the connection has until the hello deadline; after, until it has been
        // silent (no frame, no pong) for the idle timeout.
        let deadline = if joined.is_none() {
            hello_by
        } else {
            last_heard + idle
        };
        let msg = tokio::select! {
            m = stream.next() => m,
            _ = &mut closed_rx => break,
            // Stop reading: the table finishes what it has and stops; the writer closes.
            _ = reached(&mut stopping, Phase::Draining) => {
                shutting_down = true;
                break;
            }
            _ = tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)) => {
                if joined.is_none() {
                    say(&Refusal::BadRequest(format!(
                        "no hello within {} s: the connection is closed",
                        settings.hello_timeout_ms / 1000
                    )), None);
                }
                break;
            }
            _ = pings.tick() => {
                let _ = ping_tx.try_send(());
                continue;
            }
        };
        let Some(Ok(msg)) = msg else { break };
        if *stopping.borrow() != Phase::Running {
            // A frame that raced the shutdown: nothing read from now on reaches a table.
            shutting_down = true;
            break;
        }
        last_heard = Instant::now();
        let frame = match msg {
            Message::Text(t) if t.len() > crate::protocol::MAX_KEPT_FRAME => {
                say(
                    &Refusal::FrameTooLarge {
                        limit: crate::protocol::MAX_FRAME,
                    },
                    None,
                );
                break;
            }
            Message::Text(t) => t,
            Message::Binary(_) => {
                say(&Refusal::BinaryFrame, None);
                continue;
            }
            Message::Close(_) => break,
            _ => continue,
        };
        let taken = match &account_key {
            Some(a) => app.frame_budget.take(&[addr_key.as_str(), a.as_str()]),
            None => app.frame_budget.take(&[addr_key.as_str()]),
        };
        if let Err(retry_after) = taken {
            violations += 1;
            if violations > MAX_VIOLATIONS {
                break;
            }
            say(&Refusal::RateLimited { retry_after }, None);
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
                player = match &session {
                    Some(s) => app.player_by_session(s).await,
                    None => None,
                };
                identified = player.is_some();
                account_key = player.as_ref().map(|p| format!("player:{}", p.id));
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
                match sent {
                    Ok(h) => joined = Some(h),
                    Err(refusal) => {
                        let _ =
                            tx.try_send(Utf8Bytes::from(error_frame(&refusal, req.id.as_ref())));
                        drop(tx);
                        break;
                    }
                }
            }
            (None, _) => say(&Refusal::HelloFirst, req.id.as_ref()),
            (Some(h), msg) => {
                // A connection without a person gets a guest when it first takes a seat; a
                // signed-in person sits under their own name.
                if let ClientMsg::TakeSeat { name, .. } = &msg {
                    if let (Some(p), Some(n)) = (&player, name) {
                        if n.trim() != p.name {
                            say(
                                &Refusal::BadRequest(format!(
                                    "you are signed in as {}: your seat shows that name (send take_seat without \"name\")",
                                    p.name
                                )),
                                req.id.as_ref(),
                            );
                            continue;
                        }
                    }
                }
                if let (ClientMsg::TakeSeat { name, .. }, false) = (&msg, identified) {
                    match app.new_guest(name.as_deref(), client).await {
                        Ok((p, _)) => {
                            identified = true;
                            account_key = Some(format!("player:{}", p.id));
                            player = Some(p.clone());
                            if h.tx.send(Cmd::Identify { conn, player: p }).await.is_err() {
                                break;
                            }
                        }
                        Err(e) => {
                            say(&e, req.id.as_ref());
                            continue;
                        }
                    }
                }
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
    // A server shutting down does not tell the table the person left: the table is stopping,
    // and a person who was playing has not walked away (they reconnect after the restart).
    if let (Some(h), false) = (joined, shutting_down) {
        let _ = h.tx.send(Cmd::Closed { conn }).await;
    }
    drop(strong);
    drop(weak);
    drop(ping_tx);
    if shutting_down {
        // The writer ends with the server's close (bounded by the shutdown's own deadline).
        let _ = writer.await;
    } else {
        let _ = tokio::time::timeout(Duration::from_secs(5), writer).await;
    }
}
