// Booleans as stored: SQLite has no boolean type, so both dialects keep 0 or 1 (one row shape for both).
export type Bool = 0 | 1;
