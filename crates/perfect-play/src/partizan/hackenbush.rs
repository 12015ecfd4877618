//! Hackenbush stalks: each stalk a line of edges from the ground up, written from the ground:
//! `l` Left's (blue) edges, `r` Right's (red), `e` green (either player's); several stalks
//! joined by `,` (`lrlrrllr,e`). A player cuts one of their edges (or a green one); every
//! edge above it falls. Who cannot cut loses.

use super::PartizanError;
use super::rules::PartizanRules;
use super::table::Side;

/// The rules of Hackenbush on stalks.
#[derive(Clone, Copy, Debug, Default)]
pub struct HackenbushStalks;

/// The most edges valued.
pub const MAX_EDGES: usize = 4096;

/// Read stalks: each a string of `l`, `r` and `e` from the ground up, joined by `,`.
///
/// # Errors
/// [`PartizanError::Position`].
pub fn parse(text: &str) -> Result<Vec<Vec<u8>>, PartizanError> {
    let text = text.trim();
    if text.len() > MAX_EDGES * 2 {
        return Err(PartizanError::Position(format!(
            "Hackenbush stalks of more than {MAX_EDGES} edges"
        )));
    }
    let mut stalks = Vec::new();
    for (s, stalk) in text.split(',').enumerate() {
        let mut edges = Vec::new();
        for (i, c) in stalk.trim().chars().enumerate() {
            match c {
                'l' | 'r' | 'e' => edges.push(c as u8),
                _ => {
                    return Err(PartizanError::Position(format!(
                        "Hackenbush stalk {}: {c:?} at edge {}: the edges are 'l' (Left's, blue), 'r' (Right's, red) and 'e' (green)",
                        s + 1,
                        i + 1
                    )));
                }
            }
        }
        stalks.push(edges);
    }
    stalks.sort();
    Ok(stalks)
}

/// The edges `side` may cut: (stalk, edge from the ground), both from 0.
#[must_use]
pub fn cuts(stalks: &[Vec<u8>], side: Side) -> Vec<(usize, usize)> {
    let mine = match side {
        Side::Left => b'l',
        Side::Right => b'r',
    };
    let mut cuts = Vec::new();
    for (s, stalk) in stalks.iter().enumerate() {
        for (i, &edge) in stalk.iter().enumerate() {
            if edge == mine || edge == b'e' {
                cuts.push((s, i));
            }
        }
    }
    cuts
}

/// The stalks after edge `i` of stalk `s` is cut (it and every edge above fall).
#[must_use]
pub fn cut(stalks: &[Vec<u8>], s: usize, i: usize) -> Vec<Vec<u8>> {
    let mut next = stalks.to_vec();
    next[s].truncate(i);
    next.retain(|st| !st.is_empty());
    next.sort();
    next
}

impl PartizanRules for HackenbushStalks {
    type Position = Vec<Vec<u8>>;

    fn options(&self, stalks: &Vec<Vec<u8>>, side: Side) -> Vec<Vec<Vec<u8>>> {
        cuts(stalks, side)
            .into_iter()
            .map(|(s, i)| cut(stalks, s, i))
            .collect()
    }

    /// Each stalk alone.
    fn components(&self, stalks: &Vec<Vec<u8>>) -> Vec<Vec<Vec<u8>>> {
        stalks
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| vec![s.clone()])
            .collect()
    }
}

/// Hackenbush on any graph with a ground: each edge Left's (`l`, blue), Right's (`r`, red)
/// or green (`e`); cutting an edge removes it and every edge no longer connected to the
/// ground. Written as an edge list, `U V COLOUR` an edge, edges apart by `;` or new lines,
/// the ground called `g` (`g a l; a b r; b g e`); the other vertices are whole numbers from
/// 1, kept, or any other words, numbered above them; a graph is written back with numbers.
#[derive(Clone, Copy, Debug, Default)]
pub struct HackenbushGraph;

/// A graph position: its edges `(u, v, colour)` with `u <= v`, sorted, vertex 0 the ground,
/// every edge connected to it.
pub type Edges = Vec<(u16, u16, u8)>;

/// The most edges a graph may have (its values are out of reach long before).
pub const MAX_GRAPH_EDGES: usize = 1024;

/// Whether `text` is written as a graph (an edge list) rather than as stalks.
#[must_use]
pub fn is_graph(text: &str) -> bool {
    text.trim().contains([' ', ';', '\n', '\t'])
}

/// Read an edge list.
///
/// # Errors
/// [`PartizanError::Position`] naming the edge: not three words, a colour not `l`, `r` or
/// `e`, more than [`MAX_GRAPH_EDGES`] edges.
pub fn parse_graph(text: &str) -> Result<Edges, PartizanError> {
    let lines: Vec<&str> = text
        .split([';', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.len() > MAX_GRAPH_EDGES {
        return Err(PartizanError::Position(format!(
            "a Hackenbush graph of {} edges: at most {MAX_GRAPH_EDGES} are read",
            lines.len()
        )));
    }
    // A vertex named by a whole number from 1 keeps it (so that a graph written back reads
    // as the same graph); other names take the numbers above the largest.
    let numbered = |name: &str| name.parse::<u16>().ok().filter(|&n| n > 0);
    let mut next = lines
        .iter()
        .flat_map(|l| l.split_whitespace().take(2))
        .filter_map(numbered)
        .max()
        .unwrap_or(0);
    let mut named: Vec<(String, u16)> = Vec::new();
    let mut edges = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = |why: &str| {
            PartizanError::Position(format!(
                "Hackenbush edge {} ({}): {why}",
                k + 1,
                crate::parse::shorten(line)
            ))
        };
        let [u, v, colour] = words[..] else {
            return Err(bad(
                "write each edge as U V COLOUR (g is the ground; COLOUR l, r or e)",
            ));
        };
        let colour = match colour {
            "l" | "b" => b'l',
            "r" => b'r',
            "e" => b'e',
            _ => {
                return Err(bad(
                    "the colour is l (Left's, blue), r (Right's, red) or e (green)",
                ));
            }
        };
        let mut id = |name: &str| -> Result<u16, PartizanError> {
            if name == "g" || name == "ground" {
                return Ok(0);
            }
            if let Some(n) = numbered(name) {
                return Ok(n);
            }
            if let Some(&(_, n)) = named.iter().find(|(known, _)| known == name) {
                return Ok(n);
            }
            next = next
                .checked_add(1)
                .ok_or_else(|| bad("more vertices than 65,535"))?;
            named.push((name.to_string(), next));
            Ok(next)
        };
        let (a, b) = (id(u)?, id(v)?);
        edges.push((a.min(b), a.max(b), colour));
    }
    Ok(grounded(edges))
}

/// The edges still connected to the ground, sorted: what is left after a cut.
#[must_use]
pub fn grounded(mut edges: Edges) -> Edges {
    let mut reached = vec![0u16];
    let mut kept = Vec::with_capacity(edges.len());
    loop {
        let before = kept.len();
        edges.retain(|&(u, v, c)| {
            if reached.contains(&u) || reached.contains(&v) {
                for w in [u, v] {
                    if !reached.contains(&w) {
                        reached.push(w);
                    }
                }
                kept.push((u, v, c));
                false
            } else {
                true
            }
        });
        if kept.len() == before {
            break;
        }
    }
    kept.sort_unstable();
    kept
}

/// The graph written back: `g` the ground, the other vertices as numbers.
#[must_use]
pub fn show_graph(edges: &Edges) -> String {
    let name = |v: u16| {
        if v == 0 {
            "g".to_string()
        } else {
            v.to_string()
        }
    };
    edges
        .iter()
        .map(|&(u, v, c)| format!("{} {} {}", name(u), name(v), c as char))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The edges of a graph `side` may cut, by their place.
#[must_use]
pub fn graph_cuts(edges: &Edges, side: Side) -> Vec<usize> {
    let mine = match side {
        Side::Left => b'l',
        Side::Right => b'r',
    };
    (0..edges.len())
        .filter(|&i| edges[i].2 == mine || edges[i].2 == b'e')
        .collect()
}

/// The graph after edge `i` is cut: what no longer reaches the ground falls.
#[must_use]
pub fn cut_edge(edges: &Edges, i: usize) -> Edges {
    let mut next = edges.clone();
    next.remove(i);
    grounded(next)
}

impl PartizanRules for HackenbushGraph {
    type Position = Edges;

    fn options(&self, edges: &Edges, side: Side) -> Vec<Edges> {
        graph_cuts(edges, side)
            .into_iter()
            .map(|i| cut_edge(edges, i))
            .collect()
    }

    /// The parts that meet only at the ground: a cut in one leaves the others whole.
    fn components(&self, edges: &Edges) -> Vec<Edges> {
        // Union of the vertices other than the ground, joined by the edges between them;
        // vertices are indexed by their place among the graph's own (names may be large).
        let mut vertices: Vec<u16> = edges.iter().flat_map(|&(u, v, _)| [u, v]).collect();
        vertices.sort_unstable();
        vertices.dedup();
        let index = |v: u16| vertices.binary_search(&v).unwrap_or(0);
        let mut parent: Vec<usize> = (0..vertices.len()).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &(u, v, _) in edges {
            if u != 0 {
                let (a, b) = (root(&mut parent, index(u)), root(&mut parent, index(v)));
                parent[a] = b;
            }
        }
        let mut parts: Vec<(usize, Edges)> = Vec::new();
        for &(u, v, c) in edges {
            // An edge from the ground belongs with its other end; a loop at the ground alone.
            let key = if v == 0 {
                usize::MAX - parts.len()
            } else {
                root(&mut parent, index(v))
            };
            match parts.iter_mut().find(|(k, _)| *k == key) {
                Some((_, part)) => part.push((u, v, c)),
                None => parts.push((key, vec![(u, v, c)])),
            }
        }
        parts.into_iter().map(|(_, part)| part).collect()
    }
}
