//! `textDocument/completion`: [`crate::api::completions`] in the protocol's terms. It answers
//! from the buffer's text now and the last session it loaded in, so it works while the text
//! being typed does not load.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionResponse, Documentation,
    MarkupContent, MarkupKind, Position,
};

use super::document::Document;
use super::position::offset;
use crate::api::{completions, CompletionKind};

/// What may be written at `at` in `doc`.
pub fn complete(doc: &Document, at: Position) -> CompletionResponse {
    let found = completions(&doc.text, offset(&doc.text, at), doc.last());
    let items = found
        .into_iter()
        .enumerate()
        .map(|(i, c)| CompletionItem {
            label: c.label,
            kind: Some(match c.kind {
                CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                CompletionKind::Builtin | CompletionKind::Function => CompletionItemKind::FUNCTION,
                CompletionKind::BuiltinConstant | CompletionKind::Constant => {
                    CompletionItemKind::CONSTANT
                }
                CompletionKind::Game => CompletionItemKind::CLASS,
                CompletionKind::Field => CompletionItemKind::FIELD,
                CompletionKind::Parameter | CompletionKind::Variable => {
                    CompletionItemKind::VARIABLE
                }
            }),
            detail: Some(c.detail),
            documentation: c.documentation.map(|value| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                })
            }),
            // The library's order: the variables the place sees first, keywords last.
            sort_text: Some(format!("{i:05}")),
            ..CompletionItem::default()
        })
        .collect();
    CompletionResponse::List(CompletionList {
        is_incomplete: false,
        items,
    })
}
