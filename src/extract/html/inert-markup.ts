const INERT =
  /<script\b[^>]*>[\s\S]*?<\/script\s*>|<style\b[^>]*>[\s\S]*?<\/style\s*>|<svg\b[^>]*>[\s\S]*?<\/svg\s*>|<template\b[^>]*>[\s\S]*?<\/template\s*>|<noscript\b[^>]*>[\s\S]*?<\/noscript\s*>|<!--[\s\S]*?-->/gi;

/**
 * Drops scripts, styles, inline SVG, templates, noscript fallbacks and comments from the
 * HTML source before it is parsed: on news pages they are often most of the bytes, and
 * building DOM nodes for them is wasted work (none of them is article text; the prune step
 * would remove them anyway). The regex ends a script at the first `</script`, as the HTML
 * tokenizer does.
 */
export function stripInertMarkup(html: string): string {
  return html.replace(INERT, '');
}
