// Shared with bench/: the helpers live in scripts/lib (nothing outside tests/ imports tests/).
export * from '../../scripts/lib/processes.ts';
