//! A small client for tests and the load test: JSON over HTTP/1.1 and the WebSocket protocol.

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// One HTTP response: status, headers (lower-case names) and the body (JSON if it parses, else
/// a JSON string).
#[derive(Clone, Debug)]
pub struct HttpReply {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Value,
}

impl HttpReply {
    /// The first header of that (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The legal actions of an `observation` or `sync` frame, as text (none in any other frame).
pub fn legal_actions(frame: &Value) -> Vec<String> {
    frame["observation"]["legal_actions"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// One HTTP request to `addr` (`host:port`); returns the status and the body (JSON if it parses,
/// else a JSON string).
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    bearer: Option<&str>,
) -> Result<(u16, Value), String> {
    let r = request(None, addr, method, path, body, bearer).await?;
    Ok((r.status, r.body))
}

/// One HTTP request to `addr`, sent from the local address `src` if given (any 127.0.0.0/8
/// address is this machine: tests and load tests play several clients that way).
pub async fn request(
    src: Option<std::net::IpAddr>,
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    bearer: Option<&str>,
) -> Result<HttpReply, String> {
    let mut s = tcp_from(src, addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = bearer
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut buf))
        .await
        .map_err(|_| "HTTP timeout".to_string())?
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&buf);
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("bad HTTP response")?;
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or("bad status line")?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let body = serde_json::from_str(&body).unwrap_or(Value::String(body));
    Ok(HttpReply {
        status,
        headers,
        body,
    })
}

/// A TCP connection to `addr` (`host:port`), from the local address `src` if given.
async fn tcp_from(src: Option<std::net::IpAddr>, addr: &str) -> Result<TcpStream, String> {
    match src {
        None => TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}")),
        Some(ip) => {
            let socket = match ip {
                std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
                std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
            }
            .map_err(|e| e.to_string())?;
            socket
                .bind(std::net::SocketAddr::new(ip, 0))
                .map_err(|e| format!("bind {ip}: {e}"))?;
            let to = addr.parse().map_err(|e| format!("address {addr}: {e}"))?;
            socket
                .connect(to)
                .await
                .map_err(|e| format!("connect {addr}: {e}"))
        }
    }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// A WebSocket client of the table protocol.
pub struct WsClient {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every frame received, in order (for leak checks).
    pub log: Vec<Value>,
    /// How long `recv` waits.
    pub timeout: Duration,
}

impl WsClient {
    /// Connect to `url` (`ws://host:port/ws/<table>`).
    pub async fn connect(url: &str) -> Result<WsClient, String> {
        let (ws, _) = tokio_tungstenite::connect_async_with_config(url, None, true)
            .await
            .map_err(|e| format!("connect {url}: {e}"))?;
        Ok(WsClient {
            ws,
            log: Vec::new(),
            timeout: Duration::from_secs(20),
        })
    }

    /// Connect to `url` (`ws://host:port/ws/<table>`, the host an IP address) from the local
    /// address `src` (tests play clients of several addresses from 127.0.0.0/8).
    pub async fn connect_from(src: std::net::IpAddr, url: &str) -> Result<WsClient, String> {
        let host = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| format!("not a ws:// URL: {url}"))?;
        let tcp = tcp_from(Some(src), host).await?;
        // As `connect`: small frames go out at once.
        let _ = tcp.set_nodelay(true);
        let (ws, _) =
            tokio_tungstenite::client_async_with_config(url, MaybeTlsStream::Plain(tcp), None)
                .await
                .map_err(|e| format!("connect {url}: {e}"))?;
        Ok(WsClient {
            ws,
            log: Vec::new(),
            timeout: Duration::from_secs(20),
        })
    }

    /// Send a JSON frame.
    pub async fn send(&mut self, v: &Value) -> Result<(), String> {
        self.send_text(&v.to_string()).await
    }

    /// Send a raw text frame.
    pub async fn send_text(&mut self, s: &str) -> Result<(), String> {
        self.ws
            .send(Message::text(s.to_string()))
            .await
            .map_err(|e| e.to_string())
    }

    /// Send a raw binary frame.
    pub async fn send_binary(&mut self, b: Vec<u8>) -> Result<(), String> {
        self.ws
            .send(Message::binary(b))
            .await
            .map_err(|e| e.to_string())
    }

    /// The next JSON frame (errors on close, or when no text frame comes within `timeout`:
    /// the server's pings do not count).
    pub async fn recv(&mut self) -> Result<Value, String> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            let m = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| "timed out waiting for a frame".to_string())?
                .ok_or("connection closed")?
                .map_err(|e| e.to_string())?;
            match m {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str())
                        .map_err(|e| format!("server sent non-JSON: {e}"))?;
                    self.log.push(v.clone());
                    return Ok(v);
                }
                Message::Close(_) => return Err("connection closed".into()),
                _ => continue,
            }
        }
    }

    /// Receive frames until one of type `kind` comes.
    pub async fn recv_type(&mut self, kind: &str) -> Result<Value, String> {
        self.recv_until(|v| v["type"] == kind).await
    }

    /// Receive frames until `pred` holds for one; returns it.
    pub async fn recv_until(
        &mut self,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, String> {
        loop {
            let v = self.recv().await?;
            if pred(&v) {
                return Ok(v);
            }
        }
    }

    /// Read until the server closes the connection: the code of its close frame (`None`: it
    /// closed without one). Text frames on the way are logged; an error or no close within
    /// `timeout` is an error.
    pub async fn closed(&mut self) -> Result<Option<u16>, String> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        loop {
            let m = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| "timed out waiting for the close".to_string())?;
            match m {
                None => return Ok(None),
                Some(Err(e)) => return Err(e.to_string()),
                Some(Ok(Message::Close(frame))) => return Ok(frame.map(|f| u16::from(f.code))),
                Some(Ok(Message::Text(t))) => {
                    if let Ok(v) = serde_json::from_str(t.as_str()) {
                        self.log.push(v);
                    }
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Close the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
