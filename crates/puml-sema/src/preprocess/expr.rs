//! Expressions of `!if`, `!$x = …`, `!return`, call arguments: a tokenizer
//! and a precedence-climbing parser into a small tree. Evaluation lives in
//! the engine because it needs the variables and functions.

/// Deep enough for any real expression, shallow enough for the stack.
const MAX_NESTING: usize = 200;
/// Evaluation recurses along chains like `1 + 1 + …`, so their length is
/// bounded too.
const MAX_TOKENS: usize = 1000;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Int(i64),
    Str(String),
    /// `$x`, `x`: a variable, a macro, or else the word itself.
    Name(String),
    Call {
        name: String,
        args: Vec<Arg>,
    },
    Neg(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Array(Vec<Expr>),
    /// `{"key": value, …}`
    Object(Vec<(String, Expr)>),
    /// `true`, `false`, `null`, `1.5`: JSON literals kept as written.
    Raw(String),
    /// `value.key`
    Member(Box<Expr>, String),
    /// `value[index]`
    Index(Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Arg {
    pub name: Option<String>,
    pub value: Expr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Int(i64),
    /// A number with a fraction or exponent.
    Decimal(String),
    Str(String),
    Name(String),
    Op(BinOp),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Assign,
    LBrace,
    RBrace,
    Colon,
    Dot,
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if chars.get(i) == Some(&'.') && chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                tokens.push(Token::Decimal(chars[start..i].iter().collect()));
                continue;
            }
            let digits: String = chars[start..i].iter().collect();
            let n = digits
                .parse::<i64>()
                .map_err(|_| format!("the number {digits} is too large"))?;
            tokens.push(Token::Int(n));
            continue;
        }
        if c == '"' || c == '\'' {
            let start = i + 1;
            let mut end = start;
            while end < chars.len() && chars[end] != c {
                end += 1;
            }
            if end >= chars.len() {
                return Err(format!("the string starting with {c} is not closed"));
            }
            tokens.push(Token::Str(chars[start..end].iter().collect()));
            i = end + 1;
            continue;
        }
        if c == '$' || c == '%' || c == '_' || c.is_ascii_alphabetic() {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            if name.len() == 1 && (c == '$' || c == '%') {
                return Err(format!("unexpected `{c}`"));
            }
            tokens.push(Token::Name(name));
            continue;
        }
        let (token, width) = match (c, next) {
            ('&', Some('&')) => (Token::Op(BinOp::And), 2),
            ('|', Some('|')) => (Token::Op(BinOp::Or), 2),
            ('=', Some('=')) => (Token::Op(BinOp::Eq), 2),
            ('!', Some('=')) => (Token::Op(BinOp::Ne), 2),
            ('<', Some('=')) => (Token::Op(BinOp::Le), 2),
            ('>', Some('=')) => (Token::Op(BinOp::Ge), 2),
            ('<', _) => (Token::Op(BinOp::Lt), 1),
            ('>', _) => (Token::Op(BinOp::Gt), 1),
            ('+', _) => (Token::Op(BinOp::Add), 1),
            ('-', _) => (Token::Op(BinOp::Sub), 1),
            ('*', _) => (Token::Op(BinOp::Mul), 1),
            ('/', _) => (Token::Op(BinOp::Div), 1),
            ('(', _) => (Token::LParen, 1),
            (')', _) => (Token::RParen, 1),
            ('[', _) => (Token::LBracket, 1),
            (']', _) => (Token::RBracket, 1),
            (',', _) => (Token::Comma, 1),
            ('=', _) => (Token::Assign, 1),
            ('{', _) => (Token::LBrace, 1),
            ('}', _) => (Token::RBrace, 1),
            (':', _) => (Token::Colon, 1),
            ('.', _) => (Token::Dot, 1),
            ('!', _) => return Err("`!` is not an operator here; use %not(…)".to_owned()),
            _ => return Err(format!("unexpected `{c}`; quote text values, e.g. \"{c}…\"")),
        };
        tokens.push(token);
        i += width;
    }
    Ok(tokens)
}

pub(crate) fn parse(text: &str) -> Result<Expr, String> {
    let tokens = tokenize(text)?;
    if tokens.is_empty() {
        return Err("expected a value".to_owned());
    }
    if tokens.len() > MAX_TOKENS {
        return Err(format!("the expression is too long (more than {MAX_TOKENS} tokens)"));
    }
    let mut parser = Parser {
        tokens,
        pos: 0,
        nesting: 0,
    };
    let expr = parser.expr()?;
    if let Some(extra) = parser.tokens.get(parser.pos) {
        return Err(format!("unexpected {} after the expression", describe(extra)));
    }
    Ok(expr)
}

/// Parses a call's argument list text (between the parentheses).
pub(crate) fn parse_args(text: &str) -> Result<Vec<Arg>, String> {
    let tokens = tokenize(text)?;
    if tokens.len() > MAX_TOKENS {
        return Err(format!("the arguments are too long (more than {MAX_TOKENS} tokens)"));
    }
    let mut parser = Parser {
        tokens,
        pos: 0,
        nesting: 0,
    };
    let args = parser.args_until(None)?;
    if let Some(extra) = parser.tokens.get(parser.pos) {
        return Err(format!("unexpected {} in the arguments", describe(extra)));
    }
    Ok(args)
}

fn describe(token: &Token) -> String {
    match token {
        Token::Int(n) => format!("number {n}"),
        Token::Decimal(n) => format!("number {n}"),
        Token::Str(s) => format!("string \"{s}\""),
        Token::Name(n) => format!("`{n}`"),
        Token::Op(_) => "operator".to_owned(),
        Token::LParen => "`(`".to_owned(),
        Token::RParen => "`)`".to_owned(),
        Token::LBracket => "`[`".to_owned(),
        Token::RBracket => "`]`".to_owned(),
        Token::Comma => "`,`".to_owned(),
        Token::Assign => "`=` (compare with `==`)".to_owned(),
        Token::LBrace => "`{`".to_owned(),
        Token::RBrace => "`}`".to_owned(),
        Token::Colon => "`:`".to_owned(),
        Token::Dot => "`.`".to_owned(),
    }
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    nesting: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err("the expression is nested too deeply".to_owned());
        }
        let result = self.binary(0);
        self.nesting -= 1;
        result
    }

    fn binary(&mut self, min_level: u8) -> Result<Expr, String> {
        let mut left = self.unary()?;
        while let Some(Token::Op(op)) = self.peek() {
            let op = *op;
            let level = precedence(op);
            if level < min_level {
                break;
            }
            self.pos += 1;
            let right = self.binary(level + 1)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.peek() == Some(&Token::Op(BinOp::Sub)) {
            self.pos += 1;
            self.nesting += 1;
            if self.nesting > MAX_NESTING {
                return Err("the expression is nested too deeply".to_owned());
            }
            let inner = self.unary();
            self.nesting -= 1;
            return Ok(Expr::Neg(Box::new(inner?)));
        }
        self.primary()
    }

    /// A value and its `.key` / `[index]` accessors.
    fn primary(&mut self) -> Result<Expr, String> {
        let mut value = self.atom()?;
        loop {
            match self.peek() {
                Some(Token::Dot) => match self.tokens.get(self.pos + 1) {
                    Some(Token::Name(key)) if !key.starts_with(['$', '%']) => {
                        value = Expr::Member(Box::new(value), key.clone());
                        self.pos += 2;
                    }
                    _ => return Err("expected a key name after `.`".to_owned()),
                },
                Some(Token::LBracket) => {
                    self.pos += 1;
                    let index = self.expr()?;
                    if self.peek() != Some(&Token::RBracket) {
                        return Err("expected `]`".to_owned());
                    }
                    self.pos += 1;
                    value = Expr::Index(Box::new(value), Box::new(index));
                }
                _ => return Ok(value),
            }
        }
    }

    fn atom(&mut self) -> Result<Expr, String> {
        let Some(token) = self.tokens.get(self.pos).cloned() else {
            return Err("the expression ends where a value was expected".to_owned());
        };
        self.pos += 1;
        match token {
            Token::Int(n) => Ok(Expr::Int(n)),
            Token::Decimal(n) => Ok(Expr::Raw(n)),
            Token::Str(s) => Ok(Expr::Str(s)),
            Token::Name(name) if matches!(name.as_str(), "true" | "false" | "null") => Ok(Expr::Raw(name)),
            Token::Name(name) => {
                if self.peek() == Some(&Token::LParen) {
                    self.pos += 1;
                    let args = self.args_until(Some(Token::RParen))?;
                    return Ok(Expr::Call { name, args });
                }
                Ok(Expr::Name(name))
            }
            Token::LParen => {
                let inner = self.expr()?;
                if self.peek() != Some(&Token::RParen) {
                    return Err("expected `)`".to_owned());
                }
                self.pos += 1;
                Ok(inner)
            }
            Token::LBracket => {
                let items = self.args_until(Some(Token::RBracket))?;
                if items.iter().any(|a| a.name.is_some()) {
                    return Err("named values are not allowed in a list".to_owned());
                }
                Ok(Expr::Array(items.into_iter().map(|a| a.value).collect()))
            }
            Token::LBrace => {
                self.nesting += 1;
                if self.nesting > MAX_NESTING {
                    return Err("the expression is nested too deeply".to_owned());
                }
                let object = self.object();
                self.nesting -= 1;
                object
            }
            other => Err(format!("expected a value, found {}", describe(&other))),
        }
    }

    /// The members of `{…}` after the `{`, up to `}` (consumed).
    fn object(&mut self) -> Result<Expr, String> {
        let mut entries = Vec::new();
        if self.peek() == Some(&Token::RBrace) {
            self.pos += 1;
            return Ok(Expr::Object(entries));
        }
        loop {
            let key = match self.tokens.get(self.pos).cloned() {
                Some(Token::Str(k)) | Some(Token::Name(k)) => k,
                Some(other) => return Err(format!("expected a key, found {}", describe(&other))),
                None => return Err("the object is not closed with `}`".to_owned()),
            };
            self.pos += 1;
            if self.peek() != Some(&Token::Colon) {
                return Err(format!("expected `:` after the key \"{key}\""));
            }
            self.pos += 1;
            let value = self.expr()?;
            entries.push((key, value));
            match self.peek() {
                Some(Token::Comma) => self.pos += 1,
                Some(Token::RBrace) => {
                    self.pos += 1;
                    return Ok(Expr::Object(entries));
                }
                Some(other) => return Err(format!("expected `,` or `}}`, found {}", describe(other))),
                None => return Err("the object is not closed with `}`".to_owned()),
            }
        }
    }

    /// Comma-separated arguments up to `close` (consumed), or to the end of
    /// the tokens when `close` is `None`. `name = value` makes a named one.
    fn args_until(&mut self, close: Option<Token>) -> Result<Vec<Arg>, String> {
        let mut args = Vec::new();
        if self.peek() == close.as_ref() {
            self.pos += 1;
            return Ok(args);
        }
        loop {
            let name = match (self.peek(), self.tokens.get(self.pos + 1)) {
                (Some(Token::Name(n)), Some(Token::Assign)) => {
                    let n = n.clone();
                    self.pos += 2;
                    Some(n)
                }
                _ => None,
            };
            let value = self.expr()?;
            args.push(Arg { name, value });
            match self.peek() {
                Some(Token::Comma) => self.pos += 1,
                t if t == close.as_ref() => {
                    if close.is_some() {
                        self.pos += 1;
                    }
                    return Ok(args);
                }
                Some(other) => {
                    return Err(format!(
                        "expected `,` or the end of the list, found {}",
                        describe(other)
                    ))
                }
                None => return Err("the argument list is not closed".to_owned()),
            }
        }
    }
}

fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => 3,
        BinOp::Add | BinOp::Sub => 4,
        BinOp::Mul | BinOp::Div => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_calls() {
        let e = parse("$a + 2 * 3 == 7 && %strlen(\"x\") > 0").unwrap();
        assert!(matches!(e, Expr::Binary(BinOp::And, _, _)));
        let args = parse_args("$b = 5, \"x\"").unwrap();
        assert_eq!(args[0].name.as_deref(), Some("$b"));
        assert_eq!(args[1].value, Expr::Str("x".into()));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(parse(&deep).is_err());
        let negs = format!("{}1", "-".repeat(10_000));
        assert!(parse(&negs).is_err());
    }

    #[test]
    fn json_literals_and_access() {
        let e = parse(r#"{"a": [1, 2.5, true], b: null}"#).unwrap();
        assert!(matches!(e, Expr::Object(ref entries) if entries.len() == 2));
        let e = parse("$data.peers[1].name").unwrap();
        assert!(matches!(e, Expr::Member(_, ref k) if k == "name"));
        assert!(parse("$data.").is_err());
        assert!(parse("{\"a\" 1}").is_err());
    }

    #[test]
    fn rejects_unknown_characters() {
        assert!(parse("#FF0000").is_err());
        assert!(parse("!1").is_err());
        assert!(parse("1 +").is_err());
    }
}
