//! Prometheus metrics of one server, served at `GET /metrics` in the Prometheus text format
//! (version 0.0.4) by the `prometheus-client` crate.
//!
//! Every label value is a `&'static str` chosen by the code (a message kind, a status class, a
//! message-bus operation), never a table id, a player or an address: the number of series stays
//! fixed however many tables and clients come and go. The names, with what they mean, are listed
//! in `docs/deploy.md` ("Operations").
//!
//! Histograms measure wall time ([`std::time::Instant`]), not the server's [`Clock`]
//! (crate::Clock), which tests drive by hand.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::{Metric, Registry};
use std::sync::Mutex;
use std::time::Duration;

/// The `Content-Type` of [`Metrics::encode`]'s output.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// A histogram family whose series are made by a plain function (the buckets).
pub type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The buckets of every latency histogram here: 0.25 ms to about 4 s, doubling. A move's round
/// trip on a quiet server is a few milliseconds (one group commit); anything near the top
/// bucket is a stall worth seeing.
pub fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_25, 2.0, 15))
}

/// The label of the client-action metrics: the message's `type` (`act`, `deploy`, `chat`, …).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct KindLabel {
    /// The client message type, one of the protocol's fixed set.
    pub kind: &'static str,
}

/// The label of the HTTP request counter.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct ClassLabel {
    /// `1xx` … `5xx` (`1xx`: a WebSocket upgrade).
    pub class: &'static str,
}

/// The label of [`Metrics::message_bus_seconds`].
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct BusLabel {
    /// The kind of round trip (for example `request`, `publish`, `lease_renew`): a fixed word of
    /// the caller's code, never a subject name (subjects carry table ids).
    pub op: &'static str,
}

/// The status class of an HTTP status code, as a label value.
pub fn status_class(status: u16) -> &'static str {
    match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        // hyper never writes a status outside 100..=599; count anything else with the errors.
        _ => "5xx",
    }
}

/// The metrics of one server. Cloning a metric handle shares it (the handles are `Arc`s), so
/// table actors and the database writer hold their own clones.
pub struct Metrics {
    registry: Mutex<Registry>,
    /// `junqi_live_tables`: tables whose actor runs on this server (set at each scrape).
    pub live_tables: Gauge,
    /// `junqi_websocket_connections`: WebSocket connections open now.
    pub websocket_connections: Gauge,
    /// `junqi_client_actions_total{kind}`: client messages a table accepted.
    pub client_actions: Family<KindLabel, Counter>,
    /// `junqi_action_seconds{kind}`: from a client message reaching its table actor to its
    /// entry committed to the database and its frames queued to every connection (for a
    /// message that stores nothing, such as `ping`, just its handling).
    pub action_seconds: HistogramFamily<KindLabel>,
    /// `junqi_db_write_seconds`: one group commit of the database writer (every write queued
    /// at that moment, in one transaction).
    pub db_write_seconds: Histogram,
    /// `junqi_http_requests_total{class}`: HTTP requests answered, by status class.
    pub http_requests: Family<ClassLabel, Counter>,
    /// `junqi_message_bus_seconds{op}`: round trips over the message bus between servers of a
    /// cluster. Registered for the cluster's code to observe; a single server leaves it empty
    /// (and a family without series is not written at all).
    pub message_bus_seconds: HistogramFamily<BusLabel>,
}

impl Metrics {
    /// The metrics, registered. `db_write_seconds` is the database's own histogram (the
    /// writer task observes it: see [`crate::db::Db::write_seconds`]).
    pub fn new(db_write_seconds: Histogram) -> Metrics {
        let mut registry = Registry::default();
        let m = Metrics {
            registry: Mutex::new(Registry::default()),
            live_tables: Gauge::default(),
            websocket_connections: Gauge::default(),
            client_actions: Family::default(),
            action_seconds: Family::new_with_constructor(latency_histogram),
            db_write_seconds,
            http_requests: Family::default(),
            message_bus_seconds: Family::new_with_constructor(latency_histogram),
        };
        registry.register(
            "junqi_live_tables",
            "Tables whose actor runs on this server",
            m.live_tables.clone(),
        );
        registry.register(
            "junqi_websocket_connections",
            "WebSocket connections open now",
            m.websocket_connections.clone(),
        );
        registry.register(
            "junqi_client_actions",
            "Client messages a table accepted, by message type",
            m.client_actions.clone(),
        );
        registry.register(
            "junqi_action_seconds",
            "Seconds from a client message reaching its table to its entry stored and its frames queued",
            m.action_seconds.clone(),
        );
        registry.register(
            "junqi_db_write_seconds",
            "Seconds one group commit of the database writer took",
            m.db_write_seconds.clone(),
        );
        registry.register(
            "junqi_http_requests",
            "HTTP requests answered, by status class",
            m.http_requests.clone(),
        );
        registry.register(
            "junqi_message_bus_seconds",
            "Seconds of one message-bus round trip between cluster nodes, by operation",
            m.message_bus_seconds.clone(),
        );
        if let Ok(mut r) = m.registry.lock() {
            *r = registry;
        }
        m
    }

    /// Register another metric (the cluster's own, say) so that `/metrics` serves it too.
    /// `name` gets no prefix: start it with `junqi_`. Keep its labels bounded, as above.
    pub fn register(&self, name: &str, help: &str, metric: impl Metric) {
        if let Ok(mut r) = self.registry.lock() {
            r.register(name, help, metric);
        }
    }

    /// Count one accepted client message and how long it took.
    pub fn action(&self, kind: &'static str, took: Duration) {
        let label = KindLabel { kind };
        self.client_actions.get_or_create(&label).inc();
        self.action_seconds
            .get_or_create(&label)
            .observe(took.as_secs_f64());
    }

    /// Observe one message-bus round trip of kind `op`.
    pub fn message_bus(&self, op: &'static str, took: Duration) {
        self.message_bus_seconds
            .get_or_create(&BusLabel { op })
            .observe(took.as_secs_f64());
    }

    /// Count one HTTP response.
    pub fn http_response(&self, status: u16) {
        self.http_requests
            .get_or_create(&ClassLabel {
                class: status_class(status),
            })
            .inc();
    }

    /// Every metric in the Prometheus text format ([`CONTENT_TYPE`]).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        if let Ok(r) = self.registry.lock() {
            // Writing into a String cannot fail; an encoding error would mean a bad metric name
            // registered by code, and the scrape still gets what was written.
            if let Err(e) = prometheus_client::encoding::prometheus_text::encode(&mut out, &r) {
                tracing::error!("encoding the metrics: {e}");
            }
        }
        out
    }
}

/// Counts one open WebSocket connection for as long as it lives (dropped on every way out of
/// the connection's task, panics included).
pub(crate) struct ConnectionGauge(Gauge);

impl ConnectionGauge {
    pub(crate) fn open(g: &Gauge) -> ConnectionGauge {
        g.inc();
        ConnectionGauge(g.clone())
    }
}

impl Drop for ConnectionGauge {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the sample line `series` (name with labels, as written) in `text`.
    fn sample(text: &str, series: &str) -> Option<f64> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
    }

    #[test]
    fn the_message_bus_histogram_is_served_once_observed() {
        let m = Metrics::new(latency_histogram());
        // A family with no series yet is left out of the text altogether.
        assert!(!m.encode().contains("junqi_message_bus_seconds"));
        m.message_bus("request", Duration::from_millis(3));
        m.message_bus("request", Duration::from_millis(5));
        m.message_bus("publish", Duration::from_micros(100));
        let after = m.encode();
        assert!(after.contains("# TYPE junqi_message_bus_seconds histogram"));
        assert_eq!(
            sample(&after, "junqi_message_bus_seconds_count{op=\"request\"}"),
            Some(2.0)
        );
        let sum = sample(&after, "junqi_message_bus_seconds_sum{op=\"request\"}").unwrap();
        assert!((sum - 0.008).abs() < 1e-9, "{sum}");
        // 3 ms and 5 ms both lie under the 8 ms bucket, neither under 2 ms.
        assert_eq!(
            sample(
                &after,
                "junqi_message_bus_seconds_bucket{op=\"request\",le=\"0.008\"}"
            ),
            Some(2.0)
        );
        assert_eq!(
            sample(
                &after,
                "junqi_message_bus_seconds_bucket{op=\"request\",le=\"0.002\"}"
            ),
            Some(0.0)
        );
        assert_eq!(
            sample(&after, "junqi_message_bus_seconds_count{op=\"publish\"}"),
            Some(1.0)
        );
    }

    #[test]
    fn counters_gauges_and_status_classes() {
        let m = Metrics::new(latency_histogram());
        m.http_response(200);
        m.http_response(204);
        m.http_response(101);
        m.http_response(503);
        m.action("act", Duration::from_millis(2));
        m.live_tables.set(3);
        {
            let _a = ConnectionGauge::open(&m.websocket_connections);
            let _b = ConnectionGauge::open(&m.websocket_connections);
            assert_eq!(m.websocket_connections.get(), 2);
        }
        let text = m.encode();
        assert_eq!(
            sample(&text, "junqi_http_requests_total{class=\"2xx\"}"),
            Some(2.0)
        );
        assert_eq!(
            sample(&text, "junqi_http_requests_total{class=\"1xx\"}"),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, "junqi_http_requests_total{class=\"5xx\"}"),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, "junqi_client_actions_total{kind=\"act\"}"),
            Some(1.0)
        );
        assert_eq!(
            sample(&text, "junqi_action_seconds_count{kind=\"act\"}"),
            Some(1.0)
        );
        assert_eq!(sample(&text, "junqi_live_tables"), Some(3.0));
        assert_eq!(sample(&text, "junqi_websocket_connections"), Some(0.0));
    }

    #[test]
    fn metrics_registered_later_are_served() {
        let m = Metrics::new(latency_histogram());
        let c: Counter = Counter::default();
        m.register("junqi_cluster_handovers", "Tables handed over", c.clone());
        c.inc();
        assert_eq!(
            sample(&m.encode(), "junqi_cluster_handovers_total"),
            Some(1.0)
        );
    }
}
