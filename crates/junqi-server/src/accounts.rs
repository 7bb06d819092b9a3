//! Accounts: guests, registration, login and logout, and sessions.

use crate::app::{random_id, random_token, App, Player, ID_ALPHABET};
use crate::db::{col_i64, col_opt_str, col_str};

impl App {
    /// The player of a session token.
    pub async fn player_by_session(&self, token: &str) -> Option<Player> {
        if token.len() > 128 {
            return None;
        }
        let row = self
            .db
            .fetch_opt(
                "SELECT p.id, p.name, p.guest FROM junqi_sessions s JOIN junqi_players p ON p.id = s.player_id WHERE s.token = $1",
                vec![token.into()],
            )
            .await
            .ok()??;
        Some(Player {
            id: col_str(&row, 0),
            name: col_str(&row, 1),
            guest: col_i64(&row, 2) != 0,
        })
    }

    async fn new_session(&self, player_id: &str) -> Result<String, String> {
        let token = random_token(24);
        self.db
            .write1(
                "INSERT INTO junqi_sessions (token, player_id, created_ms) VALUES ($1, $2, $3)",
                vec![
                    token.clone().into(),
                    player_id.into(),
                    (self.now() as i64).into(),
                ],
            )
            .await?;
        Ok(token)
    }

    /// A new guest player and its session.
    pub async fn new_guest(&self, name: Option<&str>) -> Result<(Player, String), String> {
        let id = format!("p_{}", random_id(12, ID_ALPHABET));
        let suffix = random_id(4, b"0123456789");
        let shown = match name.map(clean_name) {
            Some(n) if !n.is_empty() => n,
            _ => format!("Guest-{suffix}"),
        };
        let key = format!("guest:{id}");
        self.db
            .write1(
                "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, NULL, 1, $4)",
                vec![id.clone().into(), shown.clone().into(), key.into(), (self.now() as i64).into()],
            )
            .await?;
        let session = self.new_session(&id).await?;
        Ok((
            Player {
                id,
                name: shown,
                guest: true,
            },
            session,
        ))
    }

    /// Register an account (argon2-hashed password). Errors: a bad name or password, or a taken name.
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        from_guest: Option<&Player>,
    ) -> Result<(Player, String), (u16, String)> {
        if !valid_account_name(name) {
            return Err((400, "a name has 3 to 24 letters, digits, '_' or '-'".into()));
        }
        if password.chars().count() < 8 || password.len() > 256 {
            return Err((400, "a password has 8 to 256 characters".into()));
        }
        let key = name.to_lowercase();
        if self
            .db
            .fetch_opt(
                "SELECT id FROM junqi_players WHERE name_key = $1",
                vec![key.clone().into()],
            )
            .await
            .map_err(|e| (500, e))?
            .is_some()
        {
            return Err((409, format!("the name {name} is taken")));
        }
        let pw = password.to_string();
        let hash = tokio::task::spawn_blocking(move || {
            use argon2::password_hash::{rand_core::OsRng, PasswordHasher, SaltString};
            let salt = SaltString::generate(&mut OsRng);
            argon2::Argon2::default()
                .hash_password(pw.as_bytes(), &salt)
                .map(|h| h.to_string())
        })
        .await
        .map_err(|e| (500, e.to_string()))?
        .map_err(|e| (500, e.to_string()))?;
        let id = match from_guest {
            Some(g) => {
                self.db
                    .write1(
                        "UPDATE junqi_players SET name = $1, name_key = $2, password_hash = $3, guest = 0 WHERE id = $4 AND guest = 1",
                        vec![name.into(), key.into(), hash.into(), g.id.as_str().into()],
                    )
                    .await
                    .map_err(|_| (409, format!("the name {name} is taken")))?;
                g.id.clone()
            }
            None => {
                let id = format!("p_{}", random_id(12, ID_ALPHABET));
                self.db
                    .write1(
                        "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, $4, 0, $5)",
                        vec![id.clone().into(), name.into(), key.into(), hash.into(), (self.now() as i64).into()],
                    )
                    .await
                    .map_err(|_| (409, format!("the name {name} is taken")))?;
                id
            }
        };
        let session = self.new_session(&id).await.map_err(|e| (500, e))?;
        Ok((
            Player {
                id,
                name: name.to_string(),
                guest: false,
            },
            session,
        ))
    }

    /// End a session.
    pub async fn logout(&self, token: &str) -> Result<(), String> {
        self.db
            .write1(
                "DELETE FROM junqi_sessions WHERE token = $1",
                vec![token.into()],
            )
            .await
    }

    /// Log in with a name and password.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
    ) -> Result<(Player, String), (u16, String)> {
        let bad = || (401, "wrong name or password".to_string());
        if name.len() > 64 || password.len() > 256 {
            return Err(bad());
        }
        let row = self
            .db
            .fetch_opt(
                "SELECT id, name, password_hash FROM junqi_players WHERE name_key = $1 AND guest = 0",
                vec![name.to_lowercase().into()],
            )
            .await
            .map_err(|e| (500, e))?
            .ok_or_else(bad)?;
        let (id, shown, hash) = (
            col_str(&row, 0),
            col_str(&row, 1),
            col_opt_str(&row, 2).unwrap_or_default(),
        );
        let pw = password.to_string();
        let ok = tokio::task::spawn_blocking(move || {
            use argon2::password_hash::{PasswordHash, PasswordVerifier};
            PasswordHash::new(&hash)
                .map(|h| {
                    argon2::Argon2::default()
                        .verify_password(pw.as_bytes(), &h)
                        .is_ok()
                })
                .unwrap_or(false)
        })
        .await
        .unwrap_or(false);
        if !ok {
            return Err(bad());
        }
        let session = self.new_session(&id).await.map_err(|e| (500, e))?;
        Ok((
            Player {
                id,
                name: shown,
                guest: false,
            },
            session,
        ))
    }

    /// The player record of a bot (created on first use).
    pub async fn bot_player(&self, bot: &str) -> Player {
        let id = format!("bot:{bot}");
        let _ = self
            .db
            .write1(
                "INSERT INTO junqi_players (id, name, name_key, password_hash, guest, created_ms) VALUES ($1, $2, $3, NULL, 0, $4) ON CONFLICT DO NOTHING",
                vec![id.clone().into(), id.clone().into(), id.clone().into(), (self.now() as i64).into()],
            )
            .await;
        Player {
            id: id.clone(),
            name: id,
            guest: false,
        }
    }
}

fn clean_name(n: &str) -> String {
    n.chars()
        .filter(|c| !c.is_control())
        .take(24)
        .collect::<String>()
        .trim()
        .to_string()
}

fn valid_account_name(n: &str) -> bool {
    (3..=24).contains(&n.chars().count())
        && n.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}
