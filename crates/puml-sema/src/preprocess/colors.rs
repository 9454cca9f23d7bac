//! The color builtins (`%darken`, `%lighten`, `%is_dark`, `%is_light`,
//! `%reverse_color`, `%hsl_color`), computed the way PlantUML 1.2026 does:
//! darken/lighten scale the HSL lightness, "dark" is a gray level under
//! 128, results are `#RRGGBB`.

use super::value::Value;

use crate::colors::NAMED_COLORS as NAMED;

/// `#RGB`, `#RRGGBB`, `#RRGGBBAA` (alpha ignored) or a color name.
fn parse_color(text: &str) -> Option<(u8, u8, u8)> {
    let text = text.trim();
    let hex = text.strip_prefix('#').unwrap_or(text);
    let from_hex = |digits: &str| u32::from_str_radix(digits, 16).ok();
    let rgb = if hex.len() == 3 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        let doubled: String = hex.chars().flat_map(|c| [c, c]).collect();
        from_hex(&doubled)
    } else if (hex.len() == 6 || hex.len() == 8) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        from_hex(&hex[..6])
    } else {
        let lower = hex.to_ascii_lowercase();
        NAMED.iter().find(|(name, _)| *name == lower).map(|(_, rgb)| *rgb)
    }?;
    Some(((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8))
}

fn hex(r: u8, g: u8, b: u8) -> Value {
    Value::Str(format!("#{r:02X}{g:02X}{b:02X}"))
}

fn to_hsl(r: u8, g: u8, b: u8) -> (f64, f64, f64) {
    let (r, g, b) = (f64::from(r) / 255.0, f64::from(g) / 255.0, f64::from(b) / 255.0);
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let l = (max + min) / 2.0;
    let d = max - min;
    if d == 0.0 {
        return (0.0, 0.0, l);
    }
    let s = if l > 0.5 {
        d / (2.0 - max - min)
    } else {
        d / (max + min)
    };
    let h = if max == r {
        ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        (b - r) / d + 2.0
    } else {
        (r - g) / d + 4.0
    };
    (h * 60.0, s, l)
}

fn from_hsl(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let h6 = (h / 60.0).rem_euclid(6.0);
    let x = c * (1.0 - (h6.rem_euclid(2.0) - 1.0).abs());
    let (r, g, b) = match h6 as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let channel = |v: f64| ((v + m) * 255.0 + 0.5).floor().clamp(0.0, 255.0) as u8;
    (channel(r), channel(g), channel(b))
}

/// Gray level as PlantUML weighs it (ITU-R 601).
fn gray(r: u8, g: u8, b: u8) -> u32 {
    (u32::from(r) * 299 + u32::from(g) * 587 + u32::from(b) * 114) / 1000
}

fn color_arg(name: &str, args: &[Value]) -> Result<(u8, u8, u8), String> {
    let text = args.first().map(Value::to_text).unwrap_or_default();
    parse_color(&text).ok_or_else(|| format!("{name}: \"{text}\" is not a color (expected #RRGGBB or a color name)"))
}

fn int_arg(name: &str, args: &[Value], i: usize) -> Result<i64, String> {
    let v = args.get(i).cloned().unwrap_or(Value::Str(String::new()));
    v.as_int().ok_or_else(|| {
        format!(
            "{name} expects a number as argument {}, found \"{}\"",
            i + 1,
            v.to_text()
        )
    })
}

/// Evaluates a color builtin; `None` when `name` is not one.
pub(crate) fn call(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    let result = match name {
        "%darken" | "%lighten" => (|| {
            let (r, g, b) = color_arg(name, args)?;
            let percent = int_arg(name, args, 1)?.clamp(-1000, 1000) as f64 / 100.0;
            let (h, s, l) = to_hsl(r, g, b);
            let factor = if name == "%darken" {
                1.0 - percent
            } else {
                1.0 + percent
            };
            let (r, g, b) = from_hsl(h, s, (l * factor).clamp(0.0, 1.0));
            Ok(hex(r, g, b))
        })(),
        "%is_dark" | "%is_light" => color_arg(name, args).map(|(r, g, b)| {
            let dark = gray(r, g, b) < 128;
            Value::bool(if name == "%is_dark" { dark } else { !dark })
        }),
        "%reverse_color" => color_arg(name, args).map(|(r, g, b)| hex(255 - r, 255 - g, 255 - b)),
        "%hsl_color" => (|| {
            let h = int_arg(name, args, 0)? as f64;
            let s = int_arg(name, args, 1)?.clamp(0, 100) as f64 / 100.0;
            let l = int_arg(name, args, 2)?.clamp(0, 100) as f64 / 100.0;
            let (r, g, b) = from_hsl(h, s, l);
            if args.len() > 3 {
                let alpha = (int_arg(name, args, 3)?.clamp(0, 100) as f64 * 255.0 / 100.0 + 0.5).floor() as u8;
                Ok(Value::Str(format!("#{alpha:02x}{r:02x}{g:02x}{b:02x}")))
            } else {
                Ok(hex(r, g, b))
            }
        })(),
        _ => return None,
    };
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, args: &[Value]) -> String {
        call(name, args)
            .and_then(Result::ok)
            .map(|v| v.to_text())
            .unwrap_or_default()
    }

    /// Expected values are PlantUML 1.2026.8's own answers.
    #[test]
    fn matches_plantuml() {
        let s = |t: &str| Value::Str(t.into());
        assert_eq!(run("%darken", &[s("#FF8040"), Value::Int(20)]), "#FF5600");
        assert_eq!(run("%lighten", &[s("#FF8040"), Value::Int(20)]), "#FFAA80");
        assert_eq!(run("%darken", &[s("red"), Value::Int(50)]), "#800000");
        assert_eq!(run("%lighten", &[s("blue"), Value::Int(10)]), "#1A1AFF");
        assert_eq!(run("%darken", &[s("#abc"), Value::Int(10)]), "#93A8BE");
        assert_eq!(run("%lighten", &[s("#FF804080"), Value::Int(10)]), "#FF9560");
        assert_eq!(run("%is_dark", &[s("#808080")]), "0");
        assert_eq!(run("%is_dark", &[s("#7F7F7F")]), "1");
        assert_eq!(run("%is_light", &[s("yellow")]), "1");
        assert_eq!(run("%reverse_color", &[s("#FF8040")]), "#007FBF");
        assert_eq!(
            run("%hsl_color", &[Value::Int(120), Value::Int(50), Value::Int(50)]),
            "#40BF40"
        );
        assert_eq!(
            run(
                "%hsl_color",
                &[Value::Int(0), Value::Int(100), Value::Int(50), Value::Int(50)]
            ),
            "#80ff0000"
        );
        assert!(matches!(call("%darken", &[s("nocolor"), Value::Int(1)]), Some(Err(_))));
    }
}
