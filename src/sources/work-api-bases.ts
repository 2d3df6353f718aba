/**
 * The metadata APIs' public endpoints (work-records.ts uses them), apart so that the settings and the
 * command line's help read them without loading the readers (linkedom).
 */
/** Public endpoints; each may be replaced by a mirror (setting `sources.apis.<name>`). */
export const WORK_API_BASES = {
  /** The DOI resolver (landing pages). */
  doi: 'https://doi.org',
  crossref: 'https://api.crossref.org',
  /** DOIs registered with DataCite (datasets, software, repositories such as Zenodo), which Crossref does not hold. */
  datacite: 'https://api.datacite.org',
  openalex: 'https://api.openalex.org',
  europepmc: 'https://www.ebi.ac.uk/europepmc/webservices/rest',
  arxiv: 'https://export.arxiv.org/api',
  /** Where arXiv PDFs are read (`<base>/<id>`). */
  arxivPdf: 'https://arxiv.org/pdf',
  pmc: 'https://pmc.ncbi.nlm.nih.gov/articles',
  pubmed: 'https://pubmed.ncbi.nlm.nih.gov',
  arxivAbs: 'https://arxiv.org/abs',
  openlibrary: 'https://openlibrary.org',
} as const;
export type WorkApiName = keyof typeof WORK_API_BASES;
export type WorkApiBases = Record<WorkApiName, string>;
