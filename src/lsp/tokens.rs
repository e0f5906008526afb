//! `textDocument/semanticTokens/full`: [`crate::api::highlights`] in the protocol's terms,
//! each token's line and start relative to the one before, in UTF-16 units, a comment over
//! several lines cut into one token a line (clients need not take tokens across lines).

use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};

use super::document::{Document, MOST_BUFFER};
use super::position::Walk;
use crate::api::{highlights, HighlightKind};

/// The token types, in the order of their numbers.
const TYPES: [HighlightKind; 9] = [
    HighlightKind::Keyword,
    HighlightKind::String,
    HighlightKind::Number,
    HighlightKind::Comment,
    HighlightKind::Operator,
    HighlightKind::Function,
    HighlightKind::Type,
    HighlightKind::Variable,
    HighlightKind::Parameter,
];

/// Modifier bits: a name where it is defined or bound, a built-in.
const DECLARATION: u32 = 1;
const BUILTIN: u32 = 2;

/// What the numbers of the tokens mean, as `initialize` declares it.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES
            .iter()
            .map(|kind| match kind {
                HighlightKind::Keyword => SemanticTokenType::KEYWORD,
                HighlightKind::String => SemanticTokenType::STRING,
                HighlightKind::Number => SemanticTokenType::NUMBER,
                HighlightKind::Comment => SemanticTokenType::COMMENT,
                HighlightKind::Operator => SemanticTokenType::OPERATOR,
                HighlightKind::Function => SemanticTokenType::FUNCTION,
                HighlightKind::Type => SemanticTokenType::TYPE,
                HighlightKind::Variable => SemanticTokenType::VARIABLE,
                HighlightKind::Parameter => SemanticTokenType::PARAMETER,
            })
            .collect(),
        token_modifiers: vec![
            SemanticTokenModifier::DECLARATION,
            SemanticTokenModifier::DEFAULT_LIBRARY,
        ],
    }
}

/// The tokens of `doc`'s text now (none for a buffer too large to check).
pub fn tokens(doc: &Document) -> SemanticTokens {
    let text = doc.text.as_str();
    let mut data = Vec::new();
    if text.len() <= MOST_BUFFER {
        let mut walk = Walk::new(text);
        let (mut line, mut start) = (0, 0);
        for h in highlights(text, doc.last()) {
            let token_type = TYPES.iter().position(|k| *k == h.kind).unwrap_or(0) as u32;
            let modifiers =
                if h.declaration { DECLARATION } else { 0 } | if h.builtin { BUILTIN } else { 0 };
            let mut piece = h.start;
            for part in text[h.start..h.end].split_inclusive('\n') {
                let (from, to) = (piece, piece + part.trim_end_matches(['\n', '\r']).len());
                piece += part.len();
                if to == from {
                    continue;
                }
                let at = walk.to(from);
                let length = text[from..to].encode_utf16().count() as u32;
                data.push(SemanticToken {
                    delta_line: at.line - line,
                    delta_start: if at.line == line {
                        at.character - start
                    } else {
                        at.character
                    },
                    length,
                    token_type,
                    token_modifiers_bitset: modifiers,
                });
                (line, start) = (at.line, at.character);
            }
        }
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
