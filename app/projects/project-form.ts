/**
 * The project form's fields, limits and checks, shared by the browser (for
 * `maxLength` and labels) and the server (which decides). SPEC §5: title,
 * category, description, duration and budget are required, display order is
 * a number, both images are required.
 */
export const PROJECT_TEXT_FIELDS = ["title", "category", "description", "duration", "budget"] as const;
export type ProjectTextField = (typeof PROJECT_TEXT_FIELDS)[number];

export const PROJECT_FIELD_LABELS: Record<ProjectTextField, string> = {
  title: "Title",
  category: "Category",
  description: "Description",
  duration: "Duration",
  budget: "Budget",
};

export const PROJECT_LIMITS: Record<ProjectTextField | "alt", number> = {
  title: 120,
  category: 80,
  description: 2000,
  duration: 60,
  budget: 60,
  alt: 250,
};

export const MAX_DISPLAY_ORDER = 99_999;

export const PROJECT_FORM_TEXT = {
  required: "Please fill in all required fields.",
  fieldRequired: "Please fill in this field.",
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  displayOrder: `Display order must be a whole number from 0 to ${MAX_DISPLAY_ORDER}.`,
  bothImages: "Please upload both before and after images.",
} as const;

/** What the form holds, as typed (so a refused form comes back as the admin left it). */
export type ProjectFormValues = Record<ProjectTextField, string> & {
  display_order: string;
  before_image_url: string;
  after_image_url: string;
  before_image_alt: string;
  after_image_alt: string;
};

export type ProjectFormErrors = Partial<
  Record<ProjectTextField | "display_order" | "before_image" | "after_image" | "before_image_alt" | "after_image_alt", string>
>;

export type ParsedProject = Record<ProjectTextField, string> & {
  display_order: number | undefined;
  before_image_alt: string | null;
  after_image_alt: string | null;
};

export function emptyProjectForm(displayOrder: number): ProjectFormValues {
  return {
    title: "",
    category: "",
    description: "",
    duration: "",
    budget: "",
    display_order: String(displayOrder),
    before_image_url: "",
    after_image_url: "",
    before_image_alt: "",
    after_image_alt: "",
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters to strip (line breaks and tabs stay).
const STRIPPED_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Trims, and strips what a browser never sends in a text field (control characters other than line breaks and tabs). */
function clean(value: string | undefined): string {
  // Browsers send line breaks as CRLF: store them as the newline everyone else uses.
  return (value ?? "").replace(/\r\n?/g, "\n").replace(STRIPPED_CONTROL_CHARACTERS, "").trim();
}

/**
 * Reads the text fields. Images are checked by the caller (they may arrive as
 * files or as URLs of uploads). `message` is the first problem, for the notice.
 */
export function parseProjectFields(fields: Record<string, string | undefined>): {
  values: ProjectFormValues;
  errors: ProjectFormErrors;
  message?: string;
  parsed?: ParsedProject;
} {
  const values: ProjectFormValues = {
    title: clean(fields.title),
    category: clean(fields.category),
    description: clean(fields.description),
    duration: clean(fields.duration),
    budget: clean(fields.budget),
    display_order: clean(fields.display_order),
    before_image_url: clean(fields.before_image_url),
    after_image_url: clean(fields.after_image_url),
    before_image_alt: clean(fields.before_image_alt),
    after_image_alt: clean(fields.after_image_alt),
  };
  const errors: ProjectFormErrors = {};
  let message: string | undefined;
  for (const field of PROJECT_TEXT_FIELDS) {
    if (values[field] === "") {
      errors[field] = PROJECT_FORM_TEXT.fieldRequired;
      message ??= PROJECT_FORM_TEXT.required;
    } else if ([...values[field]].length > PROJECT_LIMITS[field]) {
      errors[field] = PROJECT_FORM_TEXT.tooLong(PROJECT_FIELD_LABELS[field], PROJECT_LIMITS[field]);
      message ??= errors[field];
    }
  }
  let displayOrder: number | undefined;
  if (values.display_order !== "") {
    if (/^\d{1,5}$/.test(values.display_order) && Number(values.display_order) <= MAX_DISPLAY_ORDER) {
      displayOrder = Number(values.display_order);
    } else {
      errors.display_order = PROJECT_FORM_TEXT.displayOrder;
      message ??= errors.display_order;
    }
  }
  for (const side of ["before", "after"] as const) {
    const alt = values[`${side}_image_alt`];
    if ([...alt].length > PROJECT_LIMITS.alt) {
      errors[`${side}_image_alt`] = PROJECT_FORM_TEXT.tooLong("Alt text", PROJECT_LIMITS.alt);
      message ??= errors[`${side}_image_alt`];
    }
  }
  if (message) return { values, errors, message };
  return {
    values,
    errors,
    parsed: {
      title: values.title,
      category: values.category,
      description: values.description,
      duration: values.duration,
      budget: values.budget,
      display_order: displayOrder,
      before_image_alt: values.before_image_alt === "" ? null : values.before_image_alt,
      after_image_alt: values.after_image_alt === "" ? null : values.after_image_alt,
    },
  };
}
