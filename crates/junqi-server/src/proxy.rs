//! The client's address behind a reverse proxy.
//!
//! Every per-address limit (connections, table creation, login throttling) keys on the client's
//! address. Behind nginx or a load balancer every connection comes from the proxy, so one
//! client's flood would lock out everyone. An operator names the proxies it trusts
//! (`junqi serve --trusted-proxy 127.0.0.1`); for a connection from one of them the client is
//! read from `X-Forwarded-For`, and from nobody else (anyone can send that header).

use axum::http::HeaderMap;
use std::net::IpAddr;

/// The address the limits should see for a request that arrived from `peer`.
///
/// `X-Forwarded-For` lists the client and then each proxy that passed the request on, each
/// appending the address it received from. Read from the right, the first address that is not
/// a trusted proxy is the client: entries left of it were written by the client itself and
/// prove nothing. A header that cannot be read gives the peer (the proxy) itself, so a broken
/// header never lets a client choose its own address.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    // Several header lines read as one list, in order.
    let mut entries = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(text) = value.to_str() else {
            return peer;
        };
        entries.extend(text.split(','));
    }
    let mut client = peer;
    for entry in entries.iter().rev() {
        match entry.trim().parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => client = ip,
            Ok(ip) => return ip,
            Err(_) => return peer,
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_says() {
        let h = headers(&["10.0.0.9"]);
        assert_eq!(client_ip(ip("192.0.2.1"), &h, &[]), ip("192.0.2.1"));
        assert_eq!(
            client_ip(ip("192.0.2.1"), &h, &[ip("127.0.0.1")]),
            ip("192.0.2.1")
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let t = [ip("127.0.0.1")];
        assert_eq!(
            client_ip(ip("127.0.0.1"), &headers(&["203.0.113.7"]), &t),
            ip("203.0.113.7")
        );
        // No header: the proxy itself (a health check, say).
        assert_eq!(
            client_ip(ip("127.0.0.1"), &HeaderMap::new(), &t),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn a_client_cannot_choose_its_address_through_the_header() {
        let t = [ip("127.0.0.1"), ip("10.1.1.1")];
        // The client wrote "1.2.3.4" itself; the proxy appended the real address.
        let h = headers(&["1.2.3.4, 203.0.113.7"]);
        assert_eq!(client_ip(ip("127.0.0.1"), &h, &t), ip("203.0.113.7"));
        // Two proxies in a row, both trusted, each appending what it saw.
        let h = headers(&["1.2.3.4, 203.0.113.7, 10.1.1.1"]);
        assert_eq!(client_ip(ip("127.0.0.1"), &h, &t), ip("203.0.113.7"));
        // A header split over two lines reads as one list.
        let h = headers(&["1.2.3.4", "203.0.113.7"]);
        assert_eq!(client_ip(ip("127.0.0.1"), &h, &t), ip("203.0.113.7"));
        // Garbage where the client's address should be: the proxy, not a chosen address.
        let h = headers(&["1.2.3.4, not-an-ip"]);
        assert_eq!(client_ip(ip("127.0.0.1"), &h, &t), ip("127.0.0.1"));
        let h = headers(&["2001:db8::5"]);
        assert_eq!(client_ip(ip("127.0.0.1"), &h, &t), ip("2001:db8::5"));
    }
}
