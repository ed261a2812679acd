// The corpus loader and large-file generators live in bench/edit/corpus.mjs, plain JavaScript the
// benchmark runs against built code; this module gives the tests the same functions with types,
// so the test and the benchmark can never read the corpus differently.
export {
  type CorpusCase,
  casesDir,
  changedLineSpan,
  firstDifference,
  type GeneratedFileSpec,
  generateFile,
  type Judgement,
  judge,
  loadCorpus,
  type RefusalCode,
  refusalCodes,
} from "../../../../../bench/edit/corpus.mjs";
