//! `fray content RULESET [KIND [NAME]] [--json]`: what a ruleset's built-in content holds —
//! monsters, classes, weapons, armour, spells, items — with each entry's key numbers, so a GM
//! with only the binary can find the names to write in an encounter file.

use super::{output, CliError};
use fray_core::catalog::{nearest, ContentTable};
use fray_core::RulesetId;
use std::fmt::Write as _;

/// Arguments of `fray content`.
#[derive(Debug, clap::Args)]
pub struct ContentArgs {
    /// The ruleset (`cnc`, `spelljammer`, …; see `fray rulesets`).
    pub ruleset: String,
    /// A kind of content (`monsters`, `weapons`, `armour`…); every kind when left out.
    pub kind: Option<String>,
    /// One entry to show in full (e.g. `orc`).
    pub name: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fray content`.
pub fn run(args: ContentArgs) -> Result<(), CliError> {
    let id = RulesetId::from_key(&args.ruleset).ok_or_else(|| {
        CliError::Input(format!(
            "unknown ruleset `{}`{}; expected one of {}",
            args.ruleset,
            fray_core::loader::did_you_mean(&args.ruleset, RulesetId::ALL.iter().map(|r| r.key())),
            RulesetId::ALL.map(|r| r.key()).join(", ")
        ))
    })?;
    let library =
        fray_engine::Library::embedded().map_err(|e| CliError::Internal(e.to_string()))?;
    let tables = fray_engine::content_tables(id, &library).ok_or_else(|| {
        CliError::Input(format!(
            "ruleset `{}` ({}) is not implemented yet, so it has no content",
            id.key(),
            id.name()
        ))
    })?;
    let tables: Vec<&ContentTable> = match &args.kind {
        None => tables.iter().collect(),
        Some(kind) => {
            let wanted = singular_to_plural(kind);
            let found: Vec<&ContentTable> = tables.iter().filter(|t| t.kind == wanted).collect();
            if found.is_empty() {
                let kinds: Vec<&str> = tables.iter().map(|t| t.kind).collect();
                return Err(CliError::Input(format!(
                    "`{}` has no content of kind `{kind}`{}; its kinds are {}",
                    id.key(),
                    fray_core::loader::did_you_mean(kind, kinds.iter().copied()),
                    kinds.join(", ")
                )));
            }
            found
        }
    };
    if let Some(name) = &args.name {
        let table = tables[0];
        let Some(row) = table.rows.iter().find(|r| r.name == *name) else {
            let names = nearest(name, table.rows.iter().map(|r| r.name.as_str()));
            let hint = if names.is_empty() {
                String::new()
            } else {
                format!("; did you mean {}?", names.join(" or "))
            };
            return Err(CliError::Input(format!(
                "no {} `{name}` in `{}`{hint}; `fray content {} {}` lists them all",
                table.kind,
                id.key(),
                id.key(),
                table.kind
            )));
        };
        if args.json {
            let fields: serde_json::Map<String, serde_json::Value> = table
                .columns
                .iter()
                .zip(&row.cells)
                .map(|(c, v)| (c.to_string(), serde_json::Value::String(v.clone())))
                .collect();
            return output::print(&format!(
                "{}\n",
                serde_json::json!({"schema": 1, "ruleset": id.key(), "kind": table.kind,
                    "name": row.name, "fields": fields})
            ));
        }
        let mut out = format!("{} ({}, {})\n", row.name, id.key(), table.kind);
        for (column, cell) in table.columns.iter().zip(&row.cells) {
            if !cell.is_empty() {
                let _ = writeln!(out, "  {column}: {cell}");
            }
        }
        return output::print(&out);
    }
    if args.json {
        let list: Vec<serde_json::Value> = tables
            .iter()
            .map(|t| {
                serde_json::json!({
                    "kind": t.kind,
                    "columns": t.columns,
                    "rows": t.rows.iter().map(|r| serde_json::json!({"name": r.name, "cells": r.cells})).collect::<Vec<_>>(),
                })
            })
            .collect();
        return output::print(&format!(
            "{}\n",
            serde_json::json!({"schema": 1, "ruleset": id.key(), "content": list})
        ));
    }
    let mut out = String::new();
    for (i, table) in tables.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&render(table));
    }
    output::print(&out)
}

/// `monster` → `monsters`, `armor` → `armour`: the kinds are named as a GM would type them.
fn singular_to_plural(kind: &str) -> String {
    match kind {
        "armor" | "armors" | "armours" | "shield" | "shields" => "armour".to_string(),
        "class" => "classes".to_string(),
        "ability" => "abilities".to_string(),
        k if !k.ends_with('s') && k != "armour" => format!("{k}s"),
        k => k.to_string(),
    }
}

/// A table as aligned columns under a heading.
fn render(table: &ContentTable) -> String {
    let mut widths: Vec<usize> = std::iter::once("key")
        .chain(table.columns.iter().copied())
        .map(|c| c.chars().count())
        .collect();
    for row in &table.rows {
        for (w, cell) in widths
            .iter_mut()
            .zip(std::iter::once(&row.name).chain(&row.cells))
        {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(cell);
            } else {
                let _ = write!(s, "{cell:<w$}  ");
            }
        }
        s.trim_end().to_string()
    };
    let mut out = format!("{} ({})\n", table.kind, table.rows.len());
    let header: Vec<&str> = std::iter::once("key")
        .chain(table.columns.iter().copied())
        .collect();
    let _ = writeln!(out, "  {}", line(header));
    for row in &table.rows {
        let cells: Vec<&str> = std::iter::once(row.name.as_str())
            .chain(row.cells.iter().map(String::as_str))
            .collect();
        let _ = writeln!(out, "  {}", line(cells));
    }
    out
}
