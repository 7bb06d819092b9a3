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

/// One file of the client: its bytes and its MIME type.
struct ClientFile {
    data: Vec<u8>,
    mime: String,
}

/// The directory `JUNQI_WEB_DIR` names, read once (so a client developer edits and reloads
/// without rebuilding the server); `None`: the client embedded in the binary.
fn web_dir() -> Option<&'static std::path::Path> {
    static DIR: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("JUNQI_WEB_DIR").map(Into::into))
        .as_deref()
}

/// The client's file at `path`: from `dir` when given, else from the binary. Only plain
/// relative paths are looked up: `..`, absolute and odd components find nothing.
async fn client_file(dir: Option<&std::path::Path>, path: &str) -> Option<ClientFile> {
    if let Some(dir) = dir {
        let rel = std::path::Path::new(path);
        let plain = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || path.starts_with("tests/") || path.starts_with("node_modules/") {
            return None;
        }
        let full = dir.join(rel);
        let data = tokio::fs::read(&full).await.ok()?;
        let mime = mime_guess::from_path(&full)
            .first_or_octet_stream()
            .to_string();
        return Some(ClientFile { data, mime });
    }
    Web::get(path).map(|f| ClientFile {
        mime: f.metadata.mimetype().to_string(),
        data: f.data.into_owned(),
    })
}

/// Serve a client file; unknown paths without an extension get `index.html` (client routes).
pub(crate) async fn static_file(uri: Uri) -> Response {
    respond(web_dir(), uri.path()).await
}

/// The answer to a request for `path` with the client in `dir` (or the binary).
async fn respond(dir: Option<&std::path::Path>, path: &str) -> Response {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(f) = client_file(dir, path).await {
        return ([(header::CONTENT_TYPE, f.mime)], f.data).into_response();
    }
    let is_route = !path.rsplit('/').next().unwrap_or("").contains('.');
    if is_route && !path.starts_with("api/") {
        return match client_file(dir, "index.html").await {
            Some(f) => (
                [(header::CONTENT_TYPE, "text/html; charset=utf-8".to_string())],
                f.data,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A web directory (`JUNQI_WEB_DIR`) serves its files and nothing outside it.
    #[tokio::test]
    async fn web_dir_serves_its_files_and_nothing_outside() {
        let root = tempfile::tempdir().unwrap();
        let web = root.path().join("web");
        std::fs::create_dir_all(web.join("js")).unwrap();
        std::fs::write(web.join("index.html"), "<p>dev</p>").unwrap();
        std::fs::write(web.join("js/a.js"), "export const a = 1;").unwrap();
        std::fs::write(root.path().join("secret.txt"), "no").unwrap();
        let dir = Some(web.as_path());
        let js = client_file(dir, "js/a.js")
            .await
            .expect("a file of the directory");
        assert_eq!(js.data, b"export const a = 1;");
        assert!(js.mime.contains("javascript"), "{}", js.mime);
        assert!(client_file(dir, "../secret.txt").await.is_none());
        assert!(client_file(dir, "js/../../secret.txt").await.is_none());
        assert!(client_file(dir, "/etc/passwd").await.is_none());
        let page = respond(dir, "/some/route").await;
        assert_eq!(page.status(), StatusCode::OK);
    }
}
