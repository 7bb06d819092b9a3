//! The browser client (`web/` at the workspace root), embedded in the binary.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

#[derive(rust_embed::RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web/"]
#[exclude = "tests/*"]
#[exclude = "node_modules/*"]
struct Web;

const NO_CLIENT: &str = "<!doctype html><meta charset=utf-8><title>junqi</title>\
<h1>junqi server</h1><p>The browser client is not built into this binary (web/index.html was \
missing at build time). The API is at <a href=\"/api/info\">/api/info</a>.</p>";

/// Serve an embedded file; unknown paths without an extension get `index.html` (client routes).
pub(crate) async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(f) = Web::get(path) {
        let mime = f.metadata.mimetype().to_string();
        return ([(header::CONTENT_TYPE, mime)], f.data.into_owned()).into_response();
    }
    let is_route = !path.rsplit('/').next().unwrap_or("").contains('.');
    if is_route && !path.starts_with("api/") {
        return match Web::get("index.html") {
            Some(f) => (
                [(header::CONTENT_TYPE, "text/html; charset=utf-8".to_string())],
                f.data.into_owned(),
            )
                .into_response(),
            None => (
                [(header::CONTENT_TYPE, "text/html; charset=utf-8".to_string())],
                NO_CLIENT,
            )
                .into_response(),
        };
    }
    (StatusCode::NOT_FOUND, "not found").into_response()
}
