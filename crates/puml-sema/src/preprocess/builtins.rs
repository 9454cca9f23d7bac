//! The pure `%` builtins (strings, numbers, logic). Builtins that read or
//! change the preprocessor's state (`%variable_exists`, `%date`, …) are in
//! the engine.

use super::value::Value;

/// Builtins puml implements: the pure ones here plus the stateful ones the
/// engine handles.
pub(crate) const IMPLEMENTED: &[&str] = &[
    "%strlen",
    "%substr",
    "%strpos",
    "%upper",
    "%lower",
    "%string",
    "%intval",
    "%chr",
    "%ord",
    "%dec2hex",
    "%hex2dec",
    "%size",
    "%not",
    "%boolval",
    "%true",
    "%false",
    "%and",
    "%or",
    "%xor",
    "%nand",
    "%nor",
    "%nxor",
    "%newline",
    "%n",
    "%breakline",
    "%tab",
    "%backslash",
    "%dollar",
    "%percent",
    "%mod",
    "%splitstr",
    "%left_align",
    "%right_align",
    "%get_json_keys",
    "%get_json_type",
    "%json_key_exists",
    "%json_set",
    "%json_add",
    "%json_remove",
    "%json_merge",
    "%darken",
    "%lighten",
    "%is_dark",
    "%is_light",
    "%reverse_color",
    "%hsl_color",
    // Stateful, in the engine:
    "%str2json",
    "%variable_exists",
    "%function_exists",
    "%get_variable_value",
    "%set_variable_value",
    "%call_user_func",
    "%invoke_procedure",
    "%eval",
    "%date",
    "%now",
    "%version",
    "%getenv",
    "%file_exists",
    "%filename",
    "%filename_no_extension",
    "%dirpath",
    "%random",
    "%get_current_theme",
    "%feature",
];

/// PlantUML builtins puml does not implement (stdlib lists, regex, file
/// reads).
pub(crate) const NOT_IMPLEMENTED: &[&str] = &[
    "%reverse_hsluv_color",
    "%load_json",
    "%get_all_stdlib",
    "%get_all_theme",
    "%get_stdlib",
    "%retrieve_procedure",
    "%splitstr_regex",
    "%xargs",
    "%filedate",
];

pub(crate) fn is_builtin(name: &str) -> bool {
    IMPLEMENTED.contains(&name) || NOT_IMPLEMENTED.contains(&name)
}

/// `true` when `line` has `%name(` for a builtin `name`.
pub(crate) fn mentions_builtin_call(line: &str) -> bool {
    let bytes = line.as_bytes();
    line.match_indices('%').any(|(i, _)| {
        let rest = &line[i + 1..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        len > 0 && bytes.get(i + 1 + len) == Some(&b'(') && is_builtin(&line[i..i + 1 + len])
    })
}

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).cloned().unwrap_or(Value::Str(String::new()))
}

fn int_arg(args: &[Value], i: usize, name: &str) -> Result<i64, String> {
    let v = arg(args, i);
    v.as_int().ok_or_else(|| {
        format!(
            "{name} expects a number as argument {}, found \"{}\"",
            i + 1,
            v.to_text()
        )
    })
}

fn expect_count(name: &str, args: &[Value], min: usize, max: usize) -> Result<(), String> {
    if args.len() < min || args.len() > max {
        let expected = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(format!("{name} takes {expected} argument(s), found {}", args.len()));
    }
    Ok(())
}

/// Evaluates a pure builtin; `None` when `name` is not one of them.
pub(crate) fn call_pure(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    let result = match name {
        "%strlen" => expect_count(name, args, 1, 1).map(|_| Value::Int(arg(args, 0).to_text().chars().count() as i64)),
        "%substr" => expect_count(name, args, 2, 3).and_then(|_| {
            let text = arg(args, 0).to_text();
            let start = int_arg(args, 1, name)?.max(0) as usize;
            let chars = text.chars().skip(start);
            Ok(Value::Str(if args.len() == 3 {
                let len = int_arg(args, 2, name)?.max(0) as usize;
                chars.take(len).collect()
            } else {
                chars.collect()
            }))
        }),
        "%strpos" => expect_count(name, args, 2, 2).map(|_| {
            let text = arg(args, 0).to_text();
            let needle = arg(args, 1).to_text();
            Value::Int(match text.find(&needle) {
                Some(byte) => text[..byte].chars().count() as i64,
                None => -1,
            })
        }),
        "%upper" => expect_count(name, args, 1, 1).map(|_| Value::Str(arg(args, 0).to_text().to_uppercase())),
        "%lower" => expect_count(name, args, 1, 1).map(|_| Value::Str(arg(args, 0).to_text().to_lowercase())),
        "%string" => expect_count(name, args, 1, 1).map(|_| Value::Str(arg(args, 0).to_text())),
        "%intval" => expect_count(name, args, 1, 1).and_then(|_| int_arg(args, 0, name).map(Value::Int)),
        "%chr" => expect_count(name, args, 1, 1).and_then(|_| {
            let code = int_arg(args, 0, name)?;
            u32::try_from(code)
                .ok()
                .and_then(char::from_u32)
                .map(|c| Value::Str(c.to_string()))
                .ok_or_else(|| format!("%chr: {code} is not a character code"))
        }),
        "%ord" => expect_count(name, args, 1, 1)
            .map(|_| Value::Int(arg(args, 0).to_text().chars().next().map(|c| c as i64).unwrap_or(0))),
        "%dec2hex" => expect_count(name, args, 1, 1).and_then(|_| {
            // PlantUML works on 32-bit integers: -1 is ffffffff.
            let n = int_arg(args, 0, name)?;
            Ok(Value::Str(match i32::try_from(n) {
                Ok(small) => format!("{:x}", small as u32),
                Err(_) => format!("{n:x}"),
            }))
        }),
        "%hex2dec" => expect_count(name, args, 1, 1).and_then(|_| {
            let text = arg(args, 0).to_text();
            let digits = text.trim().trim_start_matches('#').trim_start_matches("0x");
            i64::from_str_radix(digits, 16)
                .map(Value::Int)
                .map_err(|_| format!("%hex2dec: \"{text}\" is not a hexadecimal number"))
        }),
        "%size" => expect_count(name, args, 1, 1).map(|_| {
            Value::Int(match arg(args, 0) {
                Value::Array(items) => items.len() as i64,
                Value::Object(entries) => entries.len() as i64,
                Value::Str(s) => s.chars().count() as i64,
                Value::Int(_) | Value::Raw(_) => 0,
            })
        }),
        "%not" => expect_count(name, args, 1, 1).map(|_| Value::bool(!arg(args, 0).truthy())),
        "%boolval" => expect_count(name, args, 1, 1).map(|_| Value::bool(arg(args, 0).parse_bool())),
        "%true" => expect_count(name, args, 0, 0).map(|_| Value::Int(1)),
        "%false" => expect_count(name, args, 0, 0).map(|_| Value::Int(0)),
        "%and" | "%or" | "%xor" | "%nand" | "%nor" | "%nxor" => {
            let truths: Vec<bool> = args.iter().map(Value::truthy).collect();
            let count = truths.iter().filter(|t| **t).count();
            let value = match name {
                "%and" => count == truths.len(),
                "%or" => count > 0,
                "%xor" => count % 2 == 1,
                "%nand" => count != truths.len(),
                "%nor" => count == 0,
                _ => count % 2 == 0,
            };
            Ok(Value::bool(value))
        }
        // PlantUML inserts an internal line-break character; puml writes the
        // `\n` escape, which means the same in every label.
        "%newline" | "%n" | "%breakline" => expect_count(name, args, 0, 0).map(|_| Value::Str("\\n".to_owned())),
        "%tab" => expect_count(name, args, 0, 0).map(|_| Value::Str("\t".to_owned())),
        "%backslash" => expect_count(name, args, 0, 0).map(|_| Value::Str("\\".to_owned())),
        "%dollar" => expect_count(name, args, 0, 0).map(|_| Value::Str("$".to_owned())),
        "%percent" => expect_count(name, args, 0, 0).map(|_| Value::Str("%".to_owned())),
        "%left_align" => expect_count(name, args, 0, 0).map(|_| Value::Str("\\l".to_owned())),
        "%right_align" => expect_count(name, args, 0, 0).map(|_| Value::Str("\\r".to_owned())),
        "%mod" => expect_count(name, args, 2, 2).and_then(|_| {
            let a = int_arg(args, 0, name)?;
            let b = int_arg(args, 1, name)?;
            a.checked_rem(b)
                .map(Value::Int)
                .ok_or_else(|| "%mod: division by zero".to_owned())
        }),
        "%splitstr" => expect_count(name, args, 2, 2).map(|_| {
            let text = arg(args, 0).to_text();
            let sep = arg(args, 1).to_text();
            let parts: Vec<Value> = if sep.is_empty() {
                text.chars().map(|c| Value::Str(c.to_string())).collect()
            } else {
                text.split(sep.as_str()).map(|p| Value::Str(p.to_owned())).collect()
            };
            Value::Array(parts)
        }),
        "%get_json_type" => expect_count(name, args, 1, 1).map(|_| Value::Str(arg(args, 0).json_type().to_owned())),
        "%get_json_keys" => expect_count(name, args, 1, 1).map(|_| match arg(args, 0) {
            Value::Object(entries) => Value::Array(entries.into_iter().map(|(k, _)| Value::Str(k)).collect()),
            Value::Array(items) => Value::Array((0..items.len() as i64).map(Value::Int).collect()),
            _ => Value::Array(Vec::new()),
        }),
        "%json_key_exists" => expect_count(name, args, 2, 2).map(|_| {
            let key = arg(args, 1).to_text();
            Value::bool(matches!(arg(args, 0), Value::Object(entries) if entries.iter().any(|(k, _)| *k == key)))
        }),
        "%json_set" => expect_count(name, args, 3, 3).and_then(|_| match arg(args, 0) {
            Value::Object(mut entries) => {
                let key = arg(args, 1).to_text();
                let value = arg(args, 2);
                match entries.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = value,
                    None => entries.push((key, value)),
                }
                Ok(Value::Object(entries))
            }
            Value::Array(mut items) => {
                let index = int_arg(args, 1, name)?;
                let slot = usize::try_from(index).ok().and_then(|i| items.get_mut(i));
                match slot {
                    Some(slot) => *slot = arg(args, 2),
                    None => return Err(format!("%json_set: index {index} is outside the array")),
                }
                Ok(Value::Array(items))
            }
            other => Err(format!(
                "%json_set needs a JSON object or array, found \"{}\"",
                other.to_text()
            )),
        }),
        "%json_add" => expect_count(name, args, 2, 3).and_then(|_| match arg(args, 0) {
            Value::Array(mut items) if args.len() == 2 => {
                items.push(arg(args, 1));
                Ok(Value::Array(items))
            }
            Value::Object(mut entries) if args.len() == 3 => {
                let key = arg(args, 1).to_text();
                entries.retain(|(k, _)| *k != key);
                entries.push((key, arg(args, 2)));
                Ok(Value::Object(entries))
            }
            _ => Err("%json_add takes (array, value) or (object, key, value)".to_owned()),
        }),
        "%json_remove" => expect_count(name, args, 2, 2).and_then(|_| match arg(args, 0) {
            Value::Object(mut entries) => {
                let key = arg(args, 1).to_text();
                entries.retain(|(k, _)| *k != key);
                Ok(Value::Object(entries))
            }
            Value::Array(mut items) => {
                let index = int_arg(args, 1, name)?;
                if let Some(i) = usize::try_from(index).ok().filter(|i| *i < items.len()) {
                    items.remove(i);
                }
                Ok(Value::Array(items))
            }
            other => Err(format!(
                "%json_remove needs a JSON object or array, found \"{}\"",
                other.to_text()
            )),
        }),
        "%json_merge" => expect_count(name, args, 2, 2).and_then(|_| match (arg(args, 0), arg(args, 1)) {
            (Value::Object(mut entries), Value::Object(more)) => {
                for (key, value) in more {
                    match entries.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = value,
                        None => entries.push((key, value)),
                    }
                }
                Ok(Value::Object(entries))
            }
            (Value::Array(mut items), Value::Array(more)) => {
                items.extend(more);
                Ok(Value::Array(items))
            }
            _ => Err("%json_merge takes two objects or two arrays".to_owned()),
        }),
        _ => return super::colors::call(name, args),
    };
    Some(result)
}

/// Formats `epoch_seconds` (UTC) with the common letters of Java's
/// `SimpleDateFormat` (`yyyy yy MM dd HH mm ss`, `'literal'`). Without a
/// pattern, Java's `Date.toString()` layout.
pub(crate) fn format_date(pattern: Option<&str>, epoch_seconds: i64) -> String {
    let days = epoch_seconds.div_euclid(86_400);
    let secs = epoch_seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let (hour, minute, second) = (secs / 3600, (secs / 60) % 60, secs % 60);
    let Some(pattern) = pattern else {
        const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let weekday = WEEKDAYS[days.rem_euclid(7) as usize];
        let month_name = MONTHS[(month - 1).clamp(0, 11) as usize];
        return format!("{weekday} {month_name} {day:02} {hour:02}:{minute:02}:{second:02} UTC {year}");
    };
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let mut run = 1;
        while i + run < chars.len() && chars[i + run] == c {
            run += 1;
        }
        match c {
            '\'' => {
                let end = chars[i + 1..].iter().position(|&ch| ch == '\'').map(|p| i + 1 + p);
                match end {
                    Some(end) => {
                        out.extend(&chars[i + 1..end]);
                        i = end + 1;
                    }
                    None => i = chars.len(),
                }
                continue;
            }
            'y' if run == 2 => out.push_str(&format!("{:02}", year.rem_euclid(100))),
            'y' => out.push_str(&format!("{year:0run$}")),
            'M' => out.push_str(&format!("{month:0run$}")),
            'd' => out.push_str(&format!("{day:0run$}")),
            'H' => out.push_str(&format!("{hour:0run$}")),
            'm' => out.push_str(&format!("{minute:0run$}")),
            's' => out.push_str(&format!("{second:0run$}")),
            _ => out.extend(std::iter::repeat_n(c, run)),
        }
        i += run;
    }
    out
}

/// Days since 1970-01-01 → (year, month 1..=12, day 1..=31), after Howard
/// Hinnant's well-known civil calendar algorithm.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        // 2026-11-22 05:30:15 UTC
        let t = 1_795_325_415;
        assert_eq!(format_date(Some("yyyy-MM-dd HH:mm:ss"), t), "2026-11-22 05:30:15");
        assert_eq!(format_date(Some("yy.M.d 'at' H"), t), "26.11.22 at 5");
        assert_eq!(format_date(None, t), "Sun Nov 22 05:30:15 UTC 2026");
        assert_eq!(format_date(Some("yyyy"), 0), "1970");
    }

    #[test]
    fn string_builtins() {
        let s = |v: &str| Value::Str(v.into());
        assert_eq!(
            call_pure("%substr", &[s("abcdef"), Value::Int(2), Value::Int(3)]),
            Some(Ok(s("cde")))
        );
        assert_eq!(call_pure("%strpos", &[s("abcdef"), s("zz")]), Some(Ok(Value::Int(-1))));
        assert_eq!(call_pure("%dec2hex", &[Value::Int(255)]), Some(Ok(s("ff"))));
        assert!(matches!(
            call_pure("%mod", &[Value::Int(1), Value::Int(0)]),
            Some(Err(_))
        ));
        assert!(matches!(call_pure("%chr", &[Value::Int(-5)]), Some(Err(_))));
        assert!(mentions_builtin_call("A -> B : %upper(\"x\")"));
        assert!(!mentions_builtin_call("A -> B : 50% done (roughly)"));
    }
}
