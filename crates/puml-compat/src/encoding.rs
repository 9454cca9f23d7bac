//! The text encodings of diagram URLs.
//!
//! PlantUML: UTF-8 → raw deflate → a base64 variant whose alphabet is
//! `0-9A-Z a-z - _` (in that order), 3 bytes to 4 characters, the last group
//! padded with zero bits and no `=`. A `~h` prefix instead carries the UTF-8
//! bytes in hexadecimal; `~0` is an explicit "deflate" marker. Kroki: UTF-8 →
//! zlib (deflate with a 2-byte header and an Adler-32 trailer) → base64url.
//! Both alphabets use the same 64 characters, so a string cannot say which
//! it is; the zlib header can: Kroki's decodes (as base64url) to bytes whose
//! first two form a valid zlib header and inflate cleanly.

use miniz_oxide::inflate::{decompress_to_vec_with_limit, decompress_to_vec_zlib_with_limit};

const PLANTUML_ALPHABET: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
const BASE64URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Which encoding a URL used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// PlantUML's deflate + base64 variant.
    PlantUmlDeflate,
    /// PlantUML's `~h` hexadecimal form.
    PlantUmlHex,
    /// Kroki's zlib + base64url.
    KrokiZlib,
}

/// Why an encoded diagram could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    Empty,
    /// A character outside the alphabet, at this character index.
    BadCharacter {
        index: usize,
        character: char,
    },
    /// `~h` with an odd number of digits or a non-hex digit.
    BadHex,
    /// The compressed data is corrupt or truncated.
    BadCompression,
    /// The decoded text would exceed the limit (bytes).
    TooLarge {
        limit: usize,
    },
    /// The decoded bytes are not UTF-8.
    NotUtf8,
    /// `~1` (Brotli) and other markers puml does not read.
    UnsupportedMarker(String),
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Empty => f.write_str("the encoded diagram is empty"),
            DecodeError::BadCharacter { index, character } => write!(
                f,
                "character {character:?} at position {index} is not in the encoding's alphabet (0-9 A-Z a-z - _)"
            ),
            DecodeError::BadHex => f.write_str("the ~h form needs an even number of hexadecimal digits"),
            DecodeError::BadCompression => {
                f.write_str("the encoded diagram does not inflate (corrupt or truncated deflate data)")
            }
            DecodeError::TooLarge { limit } => write!(f, "the decoded diagram exceeds the limit of {limit} bytes"),
            DecodeError::NotUtf8 => f.write_str("the decoded diagram is not UTF-8"),
            DecodeError::UnsupportedMarker(marker) => write!(
                f,
                "the encoding marker `{marker}` is not supported (use PlantUML's default deflate encoding or ~h hex)"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// PlantUML's encoding of `text` (what `plantuml -encodeurl` prints).
pub fn encode_plantuml(text: &str) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    encode_base64_with(&compressed, PLANTUML_ALPHABET)
}

/// Kroki's encoding of `text`: zlib, then base64url without padding.
pub fn encode_kroki(text: &str) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec_zlib(text.as_bytes(), 9);
    encode_base64_with(&compressed, BASE64URL_ALPHABET)
}

/// Decodes any of the encodings, telling PlantUML's and Kroki's apart by
/// the zlib header. `limit` bounds the decoded size (inflation bombs stop
/// there).
pub fn decode(encoded: &str, limit: usize) -> Result<(String, Encoding), DecodeError> {
    // Some clients translate standard base64 into PlantUML's alphabet and keep the `=` padding.
    let encoded = encoded.trim().trim_end_matches('=');
    if encoded.is_empty() {
        return Err(DecodeError::Empty);
    }
    if let Some(hex) = encoded.strip_prefix("~h") {
        return decode_hex(hex, limit).map(|text| (text, Encoding::PlantUmlHex));
    }
    if let Some(rest) = encoded.strip_prefix("~0") {
        return decode_plantuml(rest, limit).map(|text| (text, Encoding::PlantUmlDeflate));
    }
    if let Some(rest) = encoded.strip_prefix('~') {
        let marker: String = rest.chars().take(1).collect();
        return Err(DecodeError::UnsupportedMarker(format!("~{marker}")));
    }
    if let Some(text) = try_kroki(encoded, limit)? {
        return Ok((text, Encoding::KrokiZlib));
    }
    decode_plantuml(encoded, limit).map(|text| (text, Encoding::PlantUmlDeflate))
}

/// PlantUML's default form only.
pub fn decode_plantuml(encoded: &str, limit: usize) -> Result<String, DecodeError> {
    let bytes = decode_base64_with(encoded, PLANTUML_ALPHABET)?;
    let inflated = decompress_to_vec_with_limit(&bytes, limit).map_err(|error| inflate_error(&error, limit))?;
    String::from_utf8(inflated).map_err(|_| DecodeError::NotUtf8)
}

/// `Ok(None)` when the data is not zlib (so it is PlantUML's).
fn try_kroki(encoded: &str, limit: usize) -> Result<Option<String>, DecodeError> {
    // Kroki clients may use the standard alphabet's `+/` and `=` padding.
    let normalized: String = encoded
        .trim_end_matches('=')
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            other => other,
        })
        .collect();
    let Ok(bytes) = decode_base64_with(&normalized, BASE64URL_ALPHABET) else {
        return Ok(None);
    };
    if !is_zlib_header(&bytes) {
        return Ok(None);
    }
    match decompress_to_vec_zlib_with_limit(&bytes, limit) {
        Ok(inflated) => String::from_utf8(inflated).map(Some).map_err(|_| DecodeError::NotUtf8),
        Err(error) if matches!(error.status, miniz_oxide::inflate::TINFLStatus::HasMoreOutput) => {
            Err(DecodeError::TooLarge { limit })
        }
        Err(_) => Ok(None),
    }
}

/// RFC 1950: deflate method, window ≤ 32 KiB, header checksum a multiple of 31.
fn is_zlib_header(bytes: &[u8]) -> bool {
    match bytes {
        [cmf, flg, ..] => cmf & 0x0F == 8 && cmf >> 4 <= 7 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

fn inflate_error(error: &miniz_oxide::inflate::DecompressError, limit: usize) -> DecodeError {
    if matches!(error.status, miniz_oxide::inflate::TINFLStatus::HasMoreOutput) {
        DecodeError::TooLarge { limit }
    } else {
        DecodeError::BadCompression
    }
}

fn decode_hex(hex: &str, limit: usize) -> Result<String, DecodeError> {
    if !hex.len().is_multiple_of(2) {
        return Err(DecodeError::BadHex);
    }
    if hex.len() / 2 > limit {
        return Err(DecodeError::TooLarge { limit });
    }
    let bytes = hex
        .as_bytes()
        .chunks(2)
        .map(|pair| {
            let digits = std::str::from_utf8(pair).map_err(|_| DecodeError::BadHex)?;
            u8::from_str_radix(digits, 16).map_err(|_| DecodeError::BadHex)
        })
        .collect::<Result<Vec<u8>, _>>()?;
    String::from_utf8(bytes).map_err(|_| DecodeError::NotUtf8)
}

fn encode_base64_with(bytes: &[u8], alphabet: &[u8; 64]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let b0 = group[0];
        let b1 = group.get(1).copied().unwrap_or(0);
        let b2 = group.get(2).copied().unwrap_or(0);
        let sextets = [b0 >> 2, (b0 & 0x3) << 4 | b1 >> 4, (b1 & 0xF) << 2 | b2 >> 6, b2 & 0x3F];
        // PlantUML always writes whole groups; base64url drops the padding.
        let keep = if std::ptr::eq(alphabet, PLANTUML_ALPHABET) {
            4
        } else {
            group.len() + 1
        };
        for sextet in &sextets[..keep] {
            out.push(char::from(alphabet[usize::from(*sextet)]));
        }
    }
    out
}

fn decode_base64_with(encoded: &str, alphabet: &[u8; 64]) -> Result<Vec<u8>, DecodeError> {
    let mut values = Vec::with_capacity(encoded.len());
    for (index, character) in encoded.chars().enumerate() {
        let value = u8::try_from(character)
            .ok()
            .and_then(|byte| alphabet.iter().position(|&a| a == byte))
            .ok_or(DecodeError::BadCharacter { index, character })?;
        values.push(value as u8);
    }
    let mut bytes = Vec::with_capacity(values.len() * 3 / 4 + 3);
    for group in values.chunks(4) {
        let v = |i: usize| group.get(i).copied().unwrap_or(0);
        let decoded = [
            v(0) << 2 | v(1) >> 4,
            (v(1) & 0xF) << 4 | v(2) >> 2,
            (v(2) & 0x3) << 6 | v(3),
        ];
        // A partial group of n characters carries n - 1 whole bytes.
        let whole = group.len().saturating_sub(1).min(3);
        bytes.extend_from_slice(&decoded[..whole]);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: usize = 1 << 20;

    #[test]
    fn decodes_what_plantuml_encodes() {
        // `plantuml -encodeurl` of "@startuml\nA -> B : hi\n@enduml\n" (the
        // command strips the start and end lines), from PlantUML 1.2026.8.
        let (text, encoding) = decode("SrJGjLDmKh1IoCW40000", LIMIT).unwrap();
        assert_eq!(encoding, Encoding::PlantUmlDeflate);
        assert_eq!(text, "A -> B : hi");
    }

    #[test]
    fn round_trips_all_three_forms() {
        let source = "@startuml\nAlice -> Bob : héllo ✓\n@enduml\n";
        assert_eq!(
            decode(&encode_plantuml(source), LIMIT).unwrap(),
            (source.to_string(), Encoding::PlantUmlDeflate)
        );
        assert_eq!(
            decode(&encode_kroki(source), LIMIT).unwrap(),
            (source.to_string(), Encoding::KrokiZlib)
        );
        let hex: String = source.bytes().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            decode(&format!("~h{hex}"), LIMIT).unwrap(),
            (source.to_string(), Encoding::PlantUmlHex)
        );
        assert_eq!(
            decode(&format!("~0{}", encode_plantuml(source)), LIMIT).unwrap().0,
            source
        );
    }

    #[test]
    fn kroki_with_standard_alphabet_and_padding() {
        let source = "A -> B : a fairly long label so that the padding shows ~~~ ???";
        let url_safe = encode_kroki(source);
        let standard: String = url_safe
            .chars()
            .map(|c| match c {
                '-' => '+',
                '_' => '/',
                c => c,
            })
            .collect();
        let padded = format!("{standard}{}", "=".repeat((4 - standard.len() % 4) % 4));
        assert_eq!(
            decode(&padded, LIMIT).unwrap(),
            (source.to_string(), Encoding::KrokiZlib)
        );
    }

    #[test]
    fn refuses_bad_input_with_a_reason() {
        assert_eq!(decode("", LIMIT), Err(DecodeError::Empty));
        assert!(matches!(
            decode("abc!def", LIMIT),
            Err(DecodeError::BadCharacter {
                index: 3,
                character: '!'
            })
        ));
        assert_eq!(decode("~habc", LIMIT), Err(DecodeError::BadHex));
        assert_eq!(decode("~hzz", LIMIT), Err(DecodeError::BadHex));
        assert_eq!(decode("~hff", LIMIT), Err(DecodeError::NotUtf8));
        assert_eq!(decode("~1abc", LIMIT), Err(DecodeError::UnsupportedMarker("~1".into())));
        assert_eq!(decode("zzzz", LIMIT), Err(DecodeError::BadCompression));
    }

    #[test]
    fn an_inflation_bomb_stops_at_the_limit() {
        let bomb = "A".repeat(10_000_000);
        let encoded = encode_plantuml(&bomb);
        assert!(encoded.len() < 20_000);
        assert_eq!(
            decode(&encoded, 1_000_000),
            Err(DecodeError::TooLarge { limit: 1_000_000 })
        );
        assert_eq!(
            decode(&encode_kroki(&bomb), 1_000_000),
            Err(DecodeError::TooLarge { limit: 1_000_000 })
        );
    }
}
