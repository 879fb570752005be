// The starter formats live one per file under starter-formats/; this keeps the one import path.
export { STARTER_FORMATS, type TStarterFormat } from './starter-formats/index.ts';
