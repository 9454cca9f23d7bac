//! Readers for the test references: the subset of the dot language that
//! PlantUML's svek.dot and the generated graphs use, and dot's `-Tplain`
//! output.

use puml_graph::{Cluster, Edge, Graph, Node, RankDir, Size};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
enum Token {
    /// An identifier, number or quoted string (unquoted).
    Word(String),
    /// An HTML-like label `<...>` (outer brackets removed).
    Html(String),
    Punct(char),
    Arrow,
}

fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') || c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '-' && matches!(chars.get(i + 1), Some('>') | Some('-')) {
            tokens.push(Token::Arrow);
            i += 2;
        } else if c == '"' {
            let mut s = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    i += 1;
                }
                s.push(chars[i]);
                i += 1;
            }
            i += 1;
            tokens.push(Token::Word(s));
        } else if c == '<' {
            let mut depth = 0;
            let start = i;
            while i < chars.len() {
                match chars[i] {
                    '<' => depth += 1,
                    '>' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            tokens.push(Token::Html(chars[start + 1..i].iter().collect()));
            i += 1;
        } else if "{}[];,=".contains(c) {
            tokens.push(Token::Punct(c));
            i += 1;
        } else {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.' || chars[i] == ':')
            {
                i += 1;
            }
            if i == start {
                i += 1;
                continue;
            }
            tokens.push(Token::Word(chars[start..i].iter().collect()));
        }
    }
    tokens
}

/// The size of a fixed-size HTML table label (`WIDTH="54" HEIGHT="17"`).
fn table_size(html: &str) -> Option<Size> {
    let number = |key: &str| -> Option<f64> {
        let at = html.find(&format!("{key}=\""))? + key.len() + 2;
        let end = html[at..].find('"')? + at;
        html[at..end].parse().ok()
    };
    Some(Size::new(number("WIDTH")?, number("HEIGHT")?))
}

/// The size of a node drawn as an HTML table of fixed-size cells (PlantUML's
/// `shape=plaintext` port nodes: no border, spacing or padding), as dot
/// sizes it: cell sizes are whole points, a column as wide as its widest
/// cell, a row as high as its highest, plus dot's label margin (8 points
/// across, 4 down, each side).
fn grid_table_size(html: &str) -> Option<Size> {
    let whole = |cell: &str, key: &str| -> f64 {
        let Some(at) = cell.find(&format!("{key}=\"")).map(|i| i + key.len() + 2) else {
            return 0.0;
        };
        let digits: String = cell[at..].chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse().unwrap_or(0.0)
    };
    let mut columns: Vec<f64> = Vec::new();
    let mut height = 0.0;
    for row in html.split("<TR").skip(1) {
        let mut row_height = 0.0f64;
        for (k, cell) in row.split("<TD").skip(1).enumerate() {
            if columns.len() <= k {
                columns.push(0.0);
            }
            columns[k] = columns[k].max(whole(cell, "WIDTH"));
            row_height = row_height.max(whole(cell, "HEIGHT"));
        }
        height += row_height;
    }
    if columns.is_empty() {
        return None;
    }
    Some(Size::new(columns.iter().sum::<f64>() + 16.0, height + 8.0))
}

type Attrs = Vec<(String, Token)>;

fn attr<'a>(attrs: &'a Attrs, key: &str) -> Option<&'a Token> {
    attrs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn attr_f64(attrs: &Attrs, key: &str) -> Option<f64> {
    match attr(attrs, key)? {
        Token::Word(w) => w.parse().ok(),
        _ => None,
    }
}

fn attr_size(attrs: &Attrs, key: &str) -> Option<Size> {
    match attr(attrs, key)? {
        Token::Html(h) => table_size(h),
        _ => None,
    }
}

/// A graph read from dot text, with its node names in order.
pub struct DotGraph {
    pub graph: Graph,
    pub names: Vec<String>,
}

struct Reader {
    tokens: Vec<Token>,
    at: usize,
    graph: Graph,
    names: Vec<String>,
    index: HashMap<String, usize>,
    node_defaults: Attrs,
    edge_defaults: Attrs,
    /// Node attributes as given (applied at the end).
    node_attrs: Vec<Attrs>,
}

impl Reader {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }
    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Token::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn attr_list(&mut self) -> Attrs {
        let mut attrs = Vec::new();
        while self.eat('[') {
            while let Some(t) = self.next() {
                match t {
                    Token::Punct(']') => break,
                    Token::Punct(',') | Token::Punct(';') => {}
                    Token::Word(key) if self.eat('=') => {
                        if let Some(value) = self.next() {
                            attrs.push((key, value));
                        }
                    }
                    _ => {}
                }
            }
        }
        attrs
    }
    fn node(&mut self, name: &str, cluster: Option<usize>) -> usize {
        // `node:port` (PlantUML links members of a class to a port): the
        // node itself (the engine has no ports).
        let name = name.split(':').next().unwrap_or(name);
        if let Some(&id) = self.index.get(name) {
            // A node mentioned again inside a cluster joins it (dot makes it
            // a member of every subgraph that mentions it; the deepest wins).
            if cluster.is_some() && self.depth(cluster) > self.depth(self.graph.nodes[id].cluster) {
                self.graph.nodes[id].cluster = cluster;
            }
            return id;
        }
        let id = self.graph.add_node(Node {
            width: 54.0,
            height: 36.0,
            cluster,
        });
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), id);
        self.node_attrs.push(self.node_defaults.clone());
        id
    }
    fn depth(&self, mut cluster: Option<usize>) -> usize {
        let mut d = 0;
        while let Some(c) = cluster {
            d += 1;
            cluster = self.graph.clusters[c].parent;
        }
        d
    }
    /// Statements until the closing brace; returns the nodes mentioned.
    fn body(&mut self, cluster: Option<usize>, top: bool) -> Vec<usize> {
        let mut mentioned = Vec::new();
        let mut same_rank = false;
        while let Some(token) = self.next() {
            match token {
                Token::Punct('}') => break,
                Token::Punct(';') | Token::Punct(',') => {}
                Token::Punct('{') => {
                    let inner = self.body(cluster, false);
                    mentioned.extend(inner);
                }
                Token::Word(word) if word == "subgraph" => {
                    let name = match self.peek() {
                        Some(Token::Word(n)) => {
                            let n = n.clone();
                            self.at += 1;
                            n
                        }
                        _ => String::new(),
                    };
                    self.eat('{');
                    let inner_cluster = if name.starts_with("cluster") {
                        Some(self.graph.add_cluster(Cluster {
                            parent: cluster,
                            ..Cluster::default()
                        }))
                    } else {
                        None
                    };
                    let inner = self.body(inner_cluster.or(cluster), false);
                    mentioned.extend(inner);
                }
                Token::Word(word)
                    if (word == "node" || word == "edge" || word == "graph")
                        && self.peek() == Some(&Token::Punct('[')) =>
                {
                    let attrs = self.attr_list();
                    match word.as_str() {
                        "node" => self.node_defaults.extend(attrs),
                        "edge" => self.edge_defaults.extend(attrs),
                        _ => self.graph_attrs(&attrs, cluster, top),
                    }
                }
                Token::Word(word) => {
                    if self.eat('=') {
                        let value = self.next().unwrap_or(Token::Word(String::new()));
                        if word == "rank" && value == Token::Word("same".into()) {
                            same_rank = true;
                        }
                        self.graph_attrs(&vec![(word, value)], cluster, top);
                        continue;
                    }
                    // A node, or a chain of edges.
                    let mut chain = vec![self.node(&word, cluster)];
                    while self.peek() == Some(&Token::Arrow) {
                        self.at += 1;
                        if let Some(Token::Word(next)) = self.next() {
                            chain.push(self.node(&next, cluster));
                        }
                    }
                    let attrs = self.attr_list();
                    mentioned.extend(chain.iter().copied());
                    if chain.len() == 1 {
                        self.node_attrs[chain[0]].extend(attrs);
                    } else {
                        let mut all = self.edge_defaults.clone();
                        all.extend(attrs);
                        for pair in chain.windows(2) {
                            self.edge(pair[0], pair[1], &all);
                        }
                    }
                }
                _ => {}
            }
        }
        if same_rank && mentioned.len() > 1 {
            self.graph.same_rank.push(mentioned.clone());
        }
        mentioned
    }
    fn graph_attrs(&mut self, attrs: &Attrs, cluster: Option<usize>, top: bool) {
        for (key, value) in attrs {
            let number = match value {
                Token::Word(w) => w.parse::<f64>().ok(),
                _ => None,
            };
            match (key.as_str(), top) {
                ("nodesep", true) => self.graph.options.node_sep = number.unwrap_or(0.25) * 72.0,
                ("ranksep", true) => self.graph.options.rank_sep = number.unwrap_or(0.5) * 72.0,
                ("rankdir", true) => {
                    self.graph.options.rank_dir = match value {
                        Token::Word(w) if w == "LR" => RankDir::LeftToRight,
                        Token::Word(w) if w == "RL" => RankDir::RightToLeft,
                        Token::Word(w) if w == "BT" => RankDir::BottomToTop,
                        _ => RankDir::TopToBottom,
                    }
                }
                ("label", false) => {
                    if let (Some(c), Token::Html(h)) = (cluster, value) {
                        self.graph.clusters[c].label = table_size(h);
                    }
                }
                _ => {}
            }
        }
    }
    fn edge(&mut self, tail: usize, head: usize, attrs: &Attrs) {
        let constraint = !matches!(attr(attrs, "constraint"), Some(Token::Word(w)) if w == "false");
        self.graph.edges.push(Edge {
            tail,
            head,
            min_len: attr_f64(attrs, "minlen").unwrap_or(1.0) as u32,
            weight: attr_f64(attrs, "weight").unwrap_or(1.0),
            constraint,
            label: attr_size(attrs, "label"),
            tail_label: attr_size(attrs, "taillabel"),
            head_label: attr_size(attrs, "headlabel"),
        });
    }
}

/// Reads dot text into a [`Graph`] (sizes in px).
pub fn read_dot(text: &str) -> DotGraph {
    let mut reader = Reader {
        tokens: tokenize(text),
        at: 0,
        graph: Graph::default(),
        names: Vec::new(),
        index: HashMap::new(),
        node_defaults: Vec::new(),
        edge_defaults: Vec::new(),
        node_attrs: Vec::new(),
    };
    while let Some(t) = reader.next() {
        if t == Token::Punct('{') {
            break;
        }
    }
    reader.body(None, true);
    for (id, attrs) in reader.node_attrs.iter().enumerate() {
        let point = matches!(attr(attrs, "shape"), Some(Token::Word(w)) if w == "point");
        let width = attr_f64(attrs, "width");
        let height = attr_f64(attrs, "height");
        let node = &mut reader.graph.nodes[id];
        let plaintext_table = match (attr(attrs, "shape"), attr(attrs, "label")) {
            (Some(Token::Word(w)), Some(Token::Html(h))) if w == "plaintext" => grid_table_size(h),
            _ => None,
        };
        if point {
            let w = width.or(height).unwrap_or(0.05);
            node.width = w * 72.0;
            node.height = height.unwrap_or(w) * 72.0;
        } else if let Some(table) = plaintext_table {
            node.width = table.width.max(width.unwrap_or(0.75) * 72.0);
            node.height = table.height.max(height.unwrap_or(0.5) * 72.0);
        } else {
            node.width = width.unwrap_or(0.75) * 72.0;
            node.height = height.unwrap_or(0.5) * 72.0;
        }
    }
    DotGraph {
        graph: reader.graph,
        names: reader.names,
    }
}

/// An edge of dot's answer: tail, head, control points, label position.
pub type PlainEdge = (String, String, Vec<(f64, f64)>, Option<(f64, f64)>);

/// dot's `-Tplain` answer, converted to px with y downwards.
#[derive(Debug, Default)]
pub struct Plain {
    pub width: f64,
    pub height: f64,
    /// Node centre and size by name.
    pub nodes: HashMap<String, (f64, f64, f64, f64)>,
    /// Edges in output order: tail, head, control points, label position.
    pub edges: Vec<PlainEdge>,
}

fn plain_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut w = String::new();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                w.push(c);
            }
            words.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                w.push(c);
                chars.next();
            }
            words.push(w);
        }
    }
    words
}

pub fn read_plain(text: &str) -> Plain {
    let mut plain = Plain::default();
    let inch = |w: &str| w.parse::<f64>().unwrap_or(0.0) * 72.0;
    for line in text.lines() {
        let w = plain_words(line);
        match w.first().map(String::as_str) {
            Some("graph") if w.len() >= 4 => {
                plain.width = inch(&w[2]);
                plain.height = inch(&w[3]);
            }
            Some("node") if w.len() >= 6 => {
                let y = plain.height - inch(&w[3]);
                plain
                    .nodes
                    .insert(w[1].clone(), (inch(&w[2]), y, inch(&w[4]), inch(&w[5])));
            }
            Some("edge") if w.len() >= 4 => {
                let n: usize = w[3].parse().unwrap_or(0);
                let points = (0..n)
                    .filter_map(|i| {
                        let x = w.get(4 + 2 * i)?;
                        let y = w.get(5 + 2 * i)?;
                        Some((inch(x), plain.height - inch(y)))
                    })
                    .collect();
                let rest = 4 + 2 * n;
                let label = if w.len() >= rest + 5 && w[rest + 1].parse::<f64>().is_ok() {
                    Some((inch(&w[rest + 1]), plain.height - inch(&w[rest + 2])))
                } else {
                    None
                };
                plain.edges.push((w[1].clone(), w[2].clone(), points, label));
            }
            _ => {}
        }
    }
    plain
}
