//! The REST endpoints `POST /api/verify`, `/api/render` and `/api/svg`, with
//! a JSON body `{"code": "<diagram source>"}`. They run the very MCP tools
//! (`puml_check`, `puml_render_svg`) with the server's roots and reshape the
//! tools' structured output; there is no diagram logic here.

use crate::ApiError;
use http::StatusCode;
use puml_mcp::security::codes;
use puml_mcp::tools::{ToolContext, ToolEntry};
use rmcp::model::JsonObject;
use serde_json::{json, Value};
use std::time::SystemTime;

/// The REST endpoints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Verify,
    Render,
    Svg,
}

impl Endpoint {
    pub fn from_path(path: &str) -> Option<Endpoint> {
        match path {
            "/api/verify" => Some(Endpoint::Verify),
            "/api/render" => Some(Endpoint::Render),
            "/api/svg" => Some(Endpoint::Svg),
            _ => None,
        }
    }

    /// The MCP tool behind the endpoint.
    fn tool(self) -> &'static str {
        match self {
            Endpoint::Verify => "puml_check",
            Endpoint::Render | Endpoint::Svg => "puml_render_svg",
        }
    }
}

/// Decodes `{"code": "..."}`: an object with exactly one field, a non-empty string.
pub fn parse_body(body: &[u8]) -> Result<String, ApiError> {
    let invalid = |message: &str| ApiError::new(StatusCode::BAD_REQUEST, "invalid_input", message);
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| invalid(&format!("Invalid input: the body is not valid JSON ({e})")))?;
    let Value::Object(mut fields) = value else {
        return Err(invalid(
            "Invalid input: the body must be a JSON object {\"code\": \"...\"}",
        ));
    };
    if let Some(unknown) = fields.keys().find(|key| key.as_str() != "code") {
        return Err(invalid(&format!(
            "Invalid input: unknown field `{unknown}` (only `code` is accepted)"
        )));
    }
    match fields.remove("code") {
        Some(Value::String(code)) if !code.trim().is_empty() => Ok(code),
        _ => Err(invalid("Invalid input: code must be a non-empty string")),
    }
}

/// Runs the endpoint's tool on `code`; returns the status and JSON body.
/// Synchronous and CPU-bound: the caller runs it off the async threads.
pub fn respond(
    endpoint: Endpoint,
    code: String,
    tools: &[ToolEntry],
    ctx: &ToolContext,
) -> Result<(StatusCode, Value), ApiError> {
    let tool = tools
        .iter()
        .find(|t| t.name == endpoint.tool())
        .ok_or_else(|| ApiError::internal(format!("the {} tool is missing", endpoint.tool())))?;
    let mut arguments = JsonObject::new();
    arguments.insert("source".into(), Value::String(code));
    let result = (tool.call)(ctx, arguments)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_input", e.message.to_string()))?;
    let output = result
        .structured_content
        .ok_or_else(|| ApiError::internal(format!("{} returned no structured content", tool.name)))?;
    let diagnostics = output.get("diagnostics").cloned().unwrap_or_else(|| json!([]));
    if output.get("ok") != Some(&Value::Bool(true)) {
        let failure = diagram_failure(endpoint, &output, diagnostics);
        // `verify` answers an invalid diagram with 200: the check itself succeeded.
        return match failure.status {
            StatusCode::OK => Ok((StatusCode::OK, failure.body())),
            _ => Err(failure),
        };
    }
    let body = match endpoint {
        Endpoint::Verify => json!({
            "ok": true,
            "diagnostics": diagnostics,
            "summary": output.get("summary"),
        }),
        Endpoint::Render | Endpoint::Svg => {
            let mut body = json!({
                "ok": true,
                "svg": output.get("svg"),
                "width": output.get("width"),
                "height": output.get("height"),
                "diagnostics": diagnostics,
            });
            if let Some(note) = output.get("note") {
                body["note"] = note.clone();
            }
            if endpoint == Endpoint::Svg {
                body["filename"] = Value::String(download_name(SystemTime::now()));
            }
            body
        }
    };
    Ok((StatusCode::OK, body))
}

/// An invalid diagram: `verify` answers 200 with `ok: false` (the check
/// itself succeeded); `render`/`svg` answer 422. Oversized input is 413.
fn diagram_failure(endpoint: Endpoint, output: &Value, diagnostics: Value) -> ApiError {
    let list = diagnostics.as_array().map(Vec::as_slice).unwrap_or_default();
    let first = list.iter().find(|d| d["severity"] == "error").or_else(|| list.first());
    let message = match first {
        Some(d) => format!(
            "line {}:{}: {} [{}]",
            d["line"],
            d["column"],
            d["message"].as_str().unwrap_or_default(),
            d["code"].as_str().unwrap_or_default()
        ),
        None => "the diagram is invalid".to_string(),
    };
    let (status, code) = match first.and_then(|d| d["code"].as_str()) {
        Some(codes::TOO_LARGE) => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large"),
        _ if endpoint == Endpoint::Verify => (StatusCode::OK, "invalid_diagram"),
        _ => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_diagram"),
    };
    let mut error = ApiError::new(status, code, message);
    error.extra.insert("diagnostics".into(), diagnostics);
    if let Some(summary) = output.get("summary") {
        error.extra.insert("summary".into(), summary.clone());
    }
    error
}

/// `diagram-YYYY-MM-DDTHH-MM-SS.svg` in UTC, safe on every file system.
pub fn download_name(now: SystemTime) -> String {
    let seconds = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (year, month, day) = civil_date((seconds / 86_400) as i64);
    let in_day = seconds % 86_400;
    format!(
        "diagram-{year:04}-{month:02}-{day:02}T{:02}-{:02}-{:02}.svg",
        in_day / 3600,
        in_day % 3600 / 60,
        in_day % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01.
fn civil_date(days_since_epoch: i64) -> (i64, u32, u32) {
    // Count in 400-year eras starting on 0000-03-01, so that the leap day
    // falls at the end of each year.
    let days = days_since_epoch + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn bodies() {
        assert_eq!(
            parse_body(br#"{"code":"@startuml\n@enduml"}"#).unwrap(),
            "@startuml\n@enduml"
        );
        for bad in [
            &br#"{"code":""}"#[..],
            br#"{"code":"  "}"#,
            br#"{"code":3}"#,
            br#"{}"#,
            br#"[]"#,
            br#"{"code":"x","extra":1}"#,
            b"not json",
        ] {
            let error = parse_body(bad).unwrap_err();
            assert_eq!(error.status, StatusCode::BAD_REQUEST);
            assert_eq!(error.code, "invalid_input");
        }
    }

    #[test]
    fn download_names() {
        assert_eq!(download_name(SystemTime::UNIX_EPOCH), "diagram-1970-01-01T00-00-00.svg");
        let christmas = SystemTime::UNIX_EPOCH + Duration::from_secs(1_735_136_625);
        assert_eq!(download_name(christmas), "diagram-2024-12-25T14-23-45.svg");
        let leap_day = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400 + 86_399);
        assert_eq!(download_name(leap_day), "diagram-2000-02-29T23-59-59.svg");
    }
}
