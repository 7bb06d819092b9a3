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

/// The client's file at `path`: from the directory `JUNQI_WEB_DIR` names when it is set (so a
/// client developer edits and reloads without rebuilding the server), else from the binary.
/// Only plain relative paths are looked up: `..`, absolute and odd components find nothing.
async fn client_file(path: &str) -> Option<ClientFile> {
    if let Some(dir) = std::env::var_os("JUNQI_WEB_DIR") {
        let rel = std::path::Path::new(path);
        let plain = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || path.starts_with("tests/") || path.starts_with("node_modules/") {
            return None;
        }
        let full = std::path::Path::new(&dir).join(rel);
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
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if let Some(f) = client_file(path).await {
        return ([(header::CONTENT_TYPE, f.mime)], f.data).into_response();
    }
    let is_route = !path.rsplit('/').next().unwrap_or("").contains('.');
    if is_route && !path.starts_with("api/") {
        return match client_file("index.html").await {
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

    /// `JUNQI_WEB_DIR` serves the directory's files and nothing outside it. (The only test of
    /// this binary that sets the variable, so no other test sees it change.)
    #[tokio::test]
    async fn web_dir_serves_its_files_and_nothing_outside() {
        let root = tempfile::tempdir().unwrap();
        let web = root.path().join("web");
        std::fs::create_dir_all(web.join("js")).unwrap();
        std::fs::write(web.join("index.html"), "<p>dev</p>").unwrap();
        std::fs::write(web.join("js/a.js"), "export const a = 1;").unwrap();
        std::fs::write(root.path().join("secret.txt"), "no").unwrap();
        std::env::set_var("JUNQI_WEB_DIR", &web);
        let js = client_file("js/a.js")
            .await
            .expect("a file of the directory");
        assert_eq!(js.data, b"export const a = 1;");
        assert!(js.mime.contains("javascript"), "{}", js.mime);
        assert!(client_file("../secret.txt").await.is_none());
        assert!(client_file("js/../../secret.txt").await.is_none());
        assert!(client_file("/etc/passwd").await.is_none());
        let page = static_file("/some/route".parse().unwrap()).await;
        assert_eq!(page.status(), StatusCode::OK);
        std::env::remove_var("JUNQI_WEB_DIR");
    }
}
