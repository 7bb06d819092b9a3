//! What each client message does at a table. Each handler checks everything first and changes
//! nothing when it refuses; a change is stored before it is announced.

use super::frames::text;
use super::game::{Layout, TableEntry};
use super::persist::DrawOffer;
use super::{SeatKind, SeatState, Status, Table};
use crate::error::Refusal;
use crate::protocol::ClientMsg;
use crate::secret::random_token;
use junqi_core::Seat;
use serde_json::json;
use std::collections::BTreeSet;

/// How an accepted client message is acknowledged.
pub(super) enum Ack {
    /// `{"type": "ack", "id"}`, if the frame carried an `id`.
    Plain,
    /// An `act` with an `action_id`: always acknowledged, with the event version of the entry
    /// the action made and whether this was a resend of one already applied.
    Action {
        action_id: String,
        v: u64,
        repeat: bool,
    },
}

impl Ack {
    /// The ack frame for a message with request id `id`, if one is sent.
    pub(super) fn frame(&self, id: Option<&serde_json::Value>) -> Option<String> {
        match self {
            Ack::Plain => id.map(crate::protocol::ack_frame),
            Ack::Action {
                action_id,
                v,
                repeat,
            } => Some(crate::protocol::act_ack_frame(id, action_id, *v, *repeat)),
        }
    }
}

impl Table {
    pub(super) async fn message(&mut self, conn: u64, msg: ClientMsg) -> Result<Ack, Refusal> {
        let done = match msg {
            ClientMsg::Hello { .. } => Err(Refusal::HelloTwice),
            ClientMsg::Ping { t } => {
                self.send_json(conn, json!({"type": "pong", "t": t}));
                Ok(())
            }
            ClientMsg::TakeSeat { seat, .. } => self.take_seat(conn, seat).await,
            ClientMsg::AddBot { seat, bot } => self.add_bot(conn, seat, bot).await,
            ClientMsg::RemoveBot { seat } => self.remove_bot(conn, seat).await,
            ClientMsg::Start {} => {
                self.require_host(conn)?;
                self.start().await?;
                self.broadcast_table();
                if self.status == Status::Deploying {
                    self.broadcast_sync();
                }
                Ok(())
            }
            ClientMsg::Deploy { layout } => self.deploy(conn, &layout).await,
            ClientMsg::Act { action, action_id } => {
                return self.act(conn, &action, action_id).await
            }
            ClientMsg::Resign {} => {
                let seat = self.require_playing_seat(conn)?;
                if self.game.as_ref().is_some_and(|g| g.is_eliminated(seat)) {
                    return Err(Refusal::YouAreOut);
                }
                if self.now() < self.play_started_ms + self.config.resign_ms {
                    return Err(Refusal::ResignTooEarly {
                        seconds: self.config.resign_ms / 1000,
                    });
                }
                self.commit(TableEntry::Resign(seat)).await
            }
            ClientMsg::Leave {} => self.leave(conn).await,
            ClientMsg::Chat { text, phrase } => self.chat(conn, text, phrase),
            ClientMsg::Rematch {} => self.ask_rematch(conn).await,
            ClientMsg::OfferDraw {} => self.offer_draw(conn).await,
            ClientMsg::AcceptDraw {} => self.accept_draw(conn).await,
            ClientMsg::DeclineDraw {} => {
                let seat = self.require_playing_seat(conn)?;
                if self.draw.is_none() {
                    return Err(Refusal::NoDrawOffer);
                }
                self.draw = None;
                self.save_state().await;
                self.broadcast(text(json!({"type": "draw_declined", "by": seat})));
                self.broadcast_table();
                Ok(())
            }
        };
        done.map(|()| Ack::Plain)
    }

    /// The seat of `conn` plays `action`, stored with the client's `action_id` if given. A
    /// resend of an id the seat's game already applied applies nothing and is acknowledged as
    /// the first send was (same entry version), whatever happened since, even the end of the
    /// game.
    async fn act(
        &mut self,
        conn: u64,
        action: &str,
        action_id: Option<String>,
    ) -> Result<Ack, Refusal> {
        if let Some(id) = action_id.clone() {
            let seat = self.seat_of(conn).ok_or(Refusal::Watching)?;
            if let Some(&v) = self.action_ids.get(&(seat, id.clone())) {
                return Ok(Ack::Action {
                    action_id: id,
                    v,
                    repeat: true,
                });
            }
        }
        let seat = self.require_playing_seat(conn)?;
        let game = self.game.as_ref().ok_or(Refusal::NotStarted)?;
        let to_move = game.to_move();
        if to_move != seat {
            return Err(Refusal::NotYourTurn { to_move });
        }
        let action = game.parse_action(action)?;
        let v = self
            .commit_with_id(TableEntry::Action { seat, action }, action_id.clone())
            .await?;
        Ok(match action_id {
            Some(action_id) => Ack::Action {
                action_id,
                v,
                repeat: false,
            },
            None => Ack::Plain,
        })
    }

    pub(super) fn seat_of(&self, conn: u64) -> Option<Seat> {
        self.conns.get(&conn).and_then(|c| c.seat)
    }

    fn require_host(&self, conn: u64) -> Result<(), Refusal> {
        if self.seat_of(conn) != Some(self.host_seat) {
            return Err(Refusal::HostOnly);
        }
        if self.status != Status::Waiting {
            return Err(Refusal::AlreadyStarted);
        }
        Ok(())
    }

    fn require_playing_seat(&self, conn: u64) -> Result<Seat, Refusal> {
        let seat = self.seat_of(conn).ok_or(Refusal::Watching)?;
        match self.status {
            Status::Playing => Ok(seat),
            Status::Over => Err(Refusal::GameOver),
            _ => Err(Refusal::NotStarted),
        }
    }

    fn check_seat(&self, seat: u8) -> Result<(), Refusal> {
        if seat as usize >= self.seats.len() {
            return Err(Refusal::SeatMissing {
                seat: seat as u64,
                seats: self.seats.len(),
            });
        }
        Ok(())
    }

    /// The seat of a connection that may vote on a draw (a person seated in a game in progress
    /// and still in it), with every seat still in the game (all of them must accept).
    fn draw_voter(&self, conn: u64) -> Result<(Seat, Vec<Seat>), Refusal> {
        let seat = self.require_playing_seat(conn)?;
        let g = self.game.as_ref().ok_or(Refusal::NotStarted)?;
        if g.is_eliminated(seat) {
            return Err(Refusal::YouAreOut);
        }
        let remaining = (0..self.seats.len() as Seat)
            .filter(|&s| !g.is_eliminated(s))
            .collect();
        Ok((seat, remaining))
    }

    async fn take_seat(&mut self, conn: u64, seat: u8) -> Result<(), Refusal> {
        if self.status != Status::Waiting {
            return Err(Refusal::AlreadyStarted);
        }
        self.check_seat(seat)?;
        if self.seat_of(conn).is_some() {
            return Err(Refusal::HaveSeat);
        }
        if self.seats[seat as usize].kind != SeatKind::Empty {
            return Err(Refusal::SeatTaken { seat });
        }
        // The connection's person (the WebSocket layer makes a guest for one that has none):
        // a seat shows its player's own name, which the name policy already checked.
        let player = self
            .conns
            .get(&conn)
            .and_then(|c| c.player.clone())
            .ok_or(Refusal::Internal("the connection has no player".into()))?;
        let token = random_token(16);
        let before = self.seats[seat as usize].clone();
        self.seats[seat as usize] = SeatState::human(player.clone(), &token);
        if let Err(e) = self.save_seats().await {
            self.seats[seat as usize] = before;
            return Err(e);
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.seat = Some(seat);
        }
        self.note_presence();
        self.send_json(
            conn,
            json!({"type": "welcome", "table": self.id, "seat": seat, "token": token,
                   "host": seat == self.host_seat, "player": player.to_json(),
                   "away_limit_ms": self.away_limit_ms(), "chat": self.chat_on()}),
        );
        self.broadcast_table();
        Ok(())
    }

    async fn add_bot(&mut self, conn: u64, seat: u8, bot: Option<String>) -> Result<(), Refusal> {
        self.require_host(conn)?;
        let bot = bot.unwrap_or_else(|| self.env.settings.default_bot.clone());
        if !self.config.rules.has_bot(&bot) {
            return Err(Refusal::UnknownBot { name: bot });
        }
        self.check_seat(seat)?;
        if self.seats[seat as usize].kind != SeatKind::Empty {
            return Err(Refusal::SeatTaken { seat });
        }
        self.seats[seat as usize].kind = SeatKind::Bot { bot };
        if let Err(e) = self.save_seats().await {
            self.seats[seat as usize] = SeatState::empty();
            return Err(e);
        }
        self.broadcast_table();
        Ok(())
    }

    async fn remove_bot(&mut self, conn: u64, seat: u8) -> Result<(), Refusal> {
        self.require_host(conn)?;
        self.check_seat(seat)?;
        if !self.seats[seat as usize].is_bot() {
            return Err(Refusal::NoBot { seat });
        }
        let before = std::mem::replace(&mut self.seats[seat as usize], SeatState::empty());
        if let Err(e) = self.save_seats().await {
            self.seats[seat as usize] = before;
            return Err(e);
        }
        self.broadcast_table();
        Ok(())
    }

    async fn deploy(&mut self, conn: u64, layout: &str) -> Result<(), Refusal> {
        let seat = self.seat_of(conn).ok_or(Refusal::Watching)?;
        if self.status != Status::Deploying {
            return Err(Refusal::DeployClosed);
        }
        let d = Layout::parse(&self.config.rules, seat, layout)?;
        let before = self.seats[seat as usize].layout.replace(d);
        if let Err(e) = self.save_seats().await {
            self.seats[seat as usize].layout = before;
            return Err(e);
        }
        self.broadcast(text(json!({"type": "deployed", "seat": seat})));
        self.broadcast_table();
        if self.seats.iter().all(|s| s.layout.is_some()) {
            self.begin_play().await;
        }
        Ok(())
    }

    async fn leave(&mut self, conn: u64) -> Result<(), Refusal> {
        match self.status {
            Status::Waiting => {
                let seat = self.seat_of(conn).ok_or(Refusal::NoSeat)?;
                let before = std::mem::replace(&mut self.seats[seat as usize], SeatState::empty());
                if let Err(e) = self.save_seats().await {
                    self.seats[seat as usize] = before;
                    return Err(e);
                }
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.seat = None;
                }
                self.note_presence();
                self.broadcast_table();
                Ok(())
            }
            Status::Playing => {
                let seat = self.require_playing_seat(conn)?;
                if self.game.as_ref().is_some_and(|g| g.is_eliminated(seat)) {
                    return Err(Refusal::YouAreOut);
                }
                self.seat_gone(seat).await;
                Ok(())
            }
            Status::Deploying => Err(Refusal::NoLeaveDeploying),
            Status::Over => Err(Refusal::GameOver),
        }
    }

    async fn offer_draw(&mut self, conn: u64) -> Result<(), Refusal> {
        let (seat, remaining) = self.draw_voter(conn)?;
        if self.draw.is_some() {
            return Err(Refusal::DrawOpen);
        }
        // Bots always decline (they play on).
        let bot_refuses = remaining
            .iter()
            .find(|&&s| s != seat && self.seats[s as usize].is_bot());
        if let Some(&b) = bot_refuses {
            self.broadcast(text(
                json!({"type": "draw_offer", "by": seat, "accepted": [seat]}),
            ));
            self.broadcast(text(json!({"type": "draw_declined", "by": b})));
            return Ok(());
        }
        self.draw = Some(DrawOffer {
            by: seat,
            accepted: BTreeSet::from([seat]),
        });
        self.save_state().await;
        self.broadcast(text(
            json!({"type": "draw_offer", "by": seat, "accepted": [seat]}),
        ));
        self.broadcast_table();
        Ok(())
    }

    async fn accept_draw(&mut self, conn: u64) -> Result<(), Refusal> {
        let (seat, remaining) = self.draw_voter(conn)?;
        let offer = self.draw.as_ref().ok_or(Refusal::NoDrawOffer)?;
        if offer.accepted.contains(&seat) {
            return Err(if offer.by == seat {
                Refusal::OwnDrawOffer
            } else {
                Refusal::DrawOpen
            });
        }
        let mut accepted = offer.accepted.clone();
        let by = offer.by;
        accepted.insert(seat);
        if remaining.iter().all(|s| accepted.contains(s)) {
            let before = self.draw.take();
            let r = self.commit(TableEntry::Draw).await;
            if r.is_err() {
                self.draw = before;
            }
            return r;
        }
        if let Some(o) = self.draw.as_mut() {
            o.accepted = accepted.clone();
        }
        self.save_state().await;
        self.broadcast(text(
            json!({"type": "draw_offer", "by": by, "accepted": accepted}),
        ));
        self.broadcast_table();
        Ok(())
    }
}
