// The day a pin was saved: the contract's, so every warning and the Duplicates page say it alike.
export { savedOn } from '../../../contract/duplicate-rules.ts';
