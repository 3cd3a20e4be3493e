//! A build downloaded from a URL the user gave (`app upgrade --to URL`), so
//! its ABI can be read before the node is asked to install it: one GET,
//! redirects followed (at most 5), the body capped (`CALIMCP_MAX_BLOB`) and
//! bounded in time. Not a request to the node: no token is sent.

use std::time::Duration;

use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;

impl crate::Client {
    /// The bytes at `url`, capped by this client's `CALIMCP_MAX_BLOB` and
    /// bounded by its timeout.
    pub async fn download(&self, url: &str) -> Result<Vec<u8>> {
        download(url, self.inner.max_blob, self.timeout()).await
    }
}

/// The bytes at `url` (http or https), at most `max` of them, within `within`.
async fn download(url: &str, max: u64, within: Duration) -> Result<Vec<u8>> {
    let shown = sanitize_line(&crate::url_text(url));
    let parsed = reqwest::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
        .ok_or_else(|| {
            Error::input(Code::InvalidUrl, format!("`{shown}` is not an http(s) URL"))
        })?;
    let unreachable = |e: reqwest::Error| {
        Error::new(
            ErrorKind::Unreachable,
            Code::Unreachable,
            format!("cannot download {shown}: {e}"),
        )
    };
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(5))
        .timeout(within)
        .user_agent(concat!("calimcp/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| Error::internal(format!("cannot set up the HTTP client: {e}")))?;
    let mut resp = http.get(parsed).send().await.map_err(unreachable)?;
    if !resp.status().is_success() {
        return Err(Error::new(
            ErrorKind::Remote,
            Code::HttpError,
            format!("downloading {shown}: HTTP {}", resp.status()),
        ));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(unreachable)? {
        if (body.len() + chunk.len()) as u64 > max {
            return Err(Error::new(
                ErrorKind::Remote,
                Code::ResponseTooLarge,
                format!("{shown} is larger than {max} bytes (CALIMCP_MAX_BLOB)"),
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
