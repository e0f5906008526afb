//! Printing canonical forms in CGSuite's notation, which [`ValueTable::parse`] reads back.
//!
//! - numbers `5`, `-3/4`; nus as CGSuite writes them: `*`, `*2`, `^`, `^^`, `^3`, `v`, `vv`,
//!   `v3`, `^*`, `1*`, `3/4v*2` (number, then ups, then the nimber);
//! - a game equal to its negative: `+-1`, `+-1/2`, `+-(1*)`, `+-{3|2}`, `+-{1,1*}` (the
//!   Left options after `+-`);
//! - `{x||x|y}` with `y`'s mean below `x`: `Tiny(x-y)` translated by `x` (`2Tiny(2)` is
//!   `{2||2|0}`), and `Miny` for its negative;
//! - anything else `{L|R}`, nested forms written with more bars (`{2||1|0}`) up to three,
//!   in braces beyond; a list of several options brackets each of them.
//!
//! Options are listed in CGSuite's order (`ValueTable::form_order`): numbers by value, then nimbers, then other nus,
//! then the rest by their sorted Left, then Right, options. `Style::Unicode` writes `±`, `↑`,
//! `↓`, `⇑`, `⇓` instead of `+-`, `^`, `v`, `^^`, `vv`.

use std::cell::Cell;

use super::table::{GameId, Nus, ValueTable};

/// The alphabet of printed values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Style {
    /// CGSuite's plain text: `+-1`, `^^*`, `v`.
    #[default]
    Ascii,
    /// The same with `±`, `↑`, `↓`, `⇑`, `⇓`.
    Unicode,
    /// Plain text with the parts of a sum written out, `1/2+*`, `2+Tiny(2)`, `v+*` as
    /// `-^*`, `v3` as `-^3`: what cgl prints, since `1*2` or `v*2` would be products in an
    /// expression. CGSuite reads it too.
    Explicit,
}

/// How many bars make CGSuite put a nested form in braces.
const MAX_SLASHES: usize = 4;

/// What one printing may still write.
struct Room {
    /// Characters left to write (approximately: options are written to scratch strings).
    chars: Cell<usize>,
}

impl Room {
    fn full(&self) -> bool {
        self.chars.get() == 0
    }
    fn spend(&self, n: usize) {
        self.chars.set(self.chars.get().saturating_sub(n));
    }
}

impl ValueTable {
    /// `g` in CGSuite's plain-text notation.
    pub fn show(&mut self, g: GameId) -> String {
        self.show_with(g, Style::Ascii)
    }

    /// `g` in CGSuite's notation, in the given alphabet.
    pub fn show_with(&mut self, g: GameId, style: Style) -> String {
        self.show_bounded(g, style, usize::MAX).0
    }

    /// `g` in CGSuite's notation, cut after about `max_len` bytes (then ending in `…`, and
    /// true): a form's printed tree may be exponentially larger than the form.
    pub fn show_bounded(&mut self, g: GameId, style: Style, max_len: usize) -> (String, bool) {
        let room = Room {
            chars: Cell::new(max_len),
        };
        let mut out = String::new();
        self.write_value(g, &mut out, true, false, style, &room);
        if out.len() <= max_len && !room.full() {
            return (out, false);
        }
        let mut end = max_len.min(out.len());
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
        out.push('…');
        (out, true)
    }

    /// Writes `g`; returns how many bars separate its top level when it is written without
    /// braces (0 when it is atomic or braced).
    fn write_value(
        &mut self,
        g: GameId,
        out: &mut String,
        force_brackets: bool,
        force_parens: bool,
        style: Style,
        room: &Room,
    ) -> usize {
        if room.full() {
            return 0;
        }
        if let Some(v) = self.as_nus(g) {
            let before = out.len();
            write_nus(v, out, force_parens, style);
            room.spend(out.len() - before);
            return 0;
        }
        room.spend(3);
        let (lo, ro) = self.ordered_options(g);
        if self.neg(g).ok() == Some(g) && !lo.is_empty() {
            out.push_str(match style {
                Style::Ascii | Style::Explicit => "+-",
                Style::Unicode => "±",
            });
            if lo.len() > 1 {
                out.push('{');
                for (i, &a) in lo.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    super::budget::deeper(|| self.write_value(a, out, true, false, style, room));
                }
                out.push('}');
            } else {
                super::budget::deeper(|| self.write_value(lo[0], out, true, true, style, room));
            }
            return 0;
        }
        if let Some((name, translate, sub)) = self.tiny_form(&lo, &ro) {
            if force_parens {
                out.push('(');
            }
            if !translate.is_zero() {
                out.push_str(&translate.to_string());
                if style == Style::Explicit {
                    out.push('+');
                }
            }
            out.push_str(name);
            out.push('(');
            super::budget::deeper(|| self.write_value(sub, out, true, false, style, room));
            out.push(')');
            if force_parens {
                out.push(')');
            }
            return 0;
        }
        let mut left = String::new();
        let mut right = String::new();
        let mut slashes = 1;
        for (opts, text) in [(&lo, &mut left), (&ro, &mut right)] {
            for (i, &o) in opts.iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                let bars = super::budget::deeper(|| {
                    self.write_value(o, text, opts.len() > 1, false, style, room)
                });
                slashes = slashes.max(bars + 1);
            }
        }
        let braces = force_brackets || slashes == MAX_SLASHES;
        if braces {
            out.push('{');
        }
        out.push_str(&left);
        out.push_str(&"|".repeat(slashes));
        out.push_str(&right);
        if braces {
            out.push('}');
            0
        } else {
            slashes
        }
    }

    /// `{x || x | y}` with `mean(y) < x` is `x + Tiny(x - y)`; `{y | x || x}` with
    /// `mean(y) > x` is `x + Miny(y - x)`. Returns the name, `x` and the subscript.
    fn tiny_form(
        &mut self,
        lo: &[GameId],
        ro: &[GameId],
    ) -> Option<(&'static str, super::Dyadic, GameId)> {
        let (&[a], &[b]) = (lo, ro) else { return None };
        if let Some(x) = self.as_number(a) {
            if self.is_number(b) {
                return None;
            }
            let (bl, br) = self.stored(b);
            if let (&[bl], &[y]) = (&bl[..], &br[..]) {
                if bl == a && self.mean(y).ok()? < x {
                    let sub = self.sub(a, y).ok()?;
                    return Some(("Tiny", x, sub));
                }
            }
        }
        if let Some(x) = self.as_number(b) {
            if self.is_number(a) {
                return None;
            }
            let (al, ar) = self.stored(a);
            if let (&[y], &[ar]) = (&al[..], &ar[..]) {
                if ar == b && self.mean(y).ok()? > x {
                    let sub = self.sub(y, b).ok()?;
                    return Some(("Miny", x, sub));
                }
            }
        }
        None
    }
}

/// Writes `number + ups·^ + *nim` as CGSuite does; with `force_parens`, in parentheses
/// unless it is a lone number, nimber or up multiple.
fn write_nus(v: Nus, out: &mut String, force_parens: bool, style: Style) {
    let zero = v.number.is_zero();
    let compact = (v.ups == 0 && (v.nim == 0 || zero)) || (zero && v.nim == 0);
    if force_parens && !compact {
        out.push('(');
    }
    if style == Style::Explicit {
        write_nus_explicit(v, out);
        if force_parens && !compact {
            out.push(')');
        }
        return;
    }
    if !v.number.is_zero() || (v.ups == 0 && v.nim == 0) {
        out.push_str(&v.number.to_string());
    }
    if v.ups != 0 {
        let n = v.ups.unsigned_abs();
        let (one, two) = match (style, v.ups > 0) {
            (Style::Ascii | Style::Explicit, true) => ("^", "^^"),
            (Style::Ascii | Style::Explicit, false) => ("v", "vv"),
            (Style::Unicode, true) => ("↑", "⇑"),
            (Style::Unicode, false) => ("↓", "⇓"),
        };
        if n == 2 {
            out.push_str(two);
        } else {
            out.push_str(one);
            if n > 2 {
                out.push_str(&n.to_string());
            }
        }
    }
    if v.nim != 0 {
        out.push('*');
        if v.nim > 1 {
            out.push_str(&v.nim.to_string());
        }
    }
    if force_parens && !compact {
        out.push(')');
    }
}

/// [`Style::Explicit`]'s nus: the number, then `+` (or `-`) and the ups with the nimber
/// attached (`^*`, `^3*2`, `-^*`), or the nimber alone; downs are `v`, `vv` only without a
/// nimber, else `-^n`.
fn write_nus_explicit(v: Nus, out: &mut String) {
    let mut chunk = String::new();
    let n = v.ups.unsigned_abs();
    if v.ups < 0 && n <= 2 && v.nim == 0 {
        chunk.push_str(if n == 1 { "v" } else { "vv" });
    } else if v.ups != 0 {
        if v.ups < 0 {
            chunk.push('-');
        }
        chunk.push_str(
            match n {
                1 => "^".to_string(),
                2 => "^^".to_string(),
                _ => format!("^{n}"),
            }
            .as_str(),
        );
    }
    if v.nim != 0 {
        chunk.push('*');
        if v.nim > 1 {
            chunk.push_str(&v.nim.to_string());
        }
    }
    if !v.number.is_zero() || chunk.is_empty() {
        out.push_str(&v.number.to_string());
        if !chunk.is_empty() && !chunk.starts_with('-') {
            out.push('+');
        }
    }
    out.push_str(&chunk);
}
