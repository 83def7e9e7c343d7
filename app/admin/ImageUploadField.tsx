import { useEffect, useId, useRef, useState, type DragEvent, type Ref } from "react";
import { Icon } from "~/components/Icon";
import { IMAGE_ACCEPT, UPLOAD_TEXT, checkSelectedFiles } from "~/images/image-files";
import { prepareForUpload, uploadFailureText, uploadImage } from "~/images/upload-client";
import { useHydrated } from "./use-hydrated";

export type ImageUploadFieldProps = {
  side: "before" | "after";
  /** The group's visible name: "Before image" / "After image". */
  label: string;
  /** The image already chosen (editing, or kept after a failed save). */
  initialUrl?: string;
  /** The alt text the admin typed earlier ("" or undefined: the default). */
  initialAlt?: string;
  /** The alt text used when the admin types none ("Before: <title>"), live from the title field. */
  defaultAlt: string;
  /** The server's message about this image, shown inline. */
  error?: string;
  /** True while an upload runs (the form disables Save), false when it ends. */
  onUploadingChange?: (uploading: boolean) => void;
  /** The file input's id (for links from an error summary); generated when absent. */
  id?: string;
};

const ALT_MAX_LENGTH = 250;

const FIELD_TEXT = {
  choose: "Choose an image",
  replace: "Replace image",
  drag: "or drag it here",
  drop: "Drop the image to upload it",
  hint: "JPEG, PNG, GIF or WebP, under 10 MB. One file.",
  uploading: "Uploading…",
  uploaded: (label: string) => `${label} uploaded.`,
  // Visible beside the preview; its accessible name adds the side ("Remove before image"), and starts with these words (WCAG 2.5.3).
  remove: "Remove",
  removed: (label: string) => `${label} removed.`,
  altLabel: (side: string) => `Alt text for the ${side} image`,
  altHint: (defaultAlt: string) => `Leave empty to use: ${defaultAlt}`,
} as const;

const INPUT =
  "mt-2 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2.5 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-0";

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes("Files");
}

/**
 * One of the project form's two images: a preview of the current one, a drop
 * zone, and its alt text. Sends (see docs: the form's contract)
 * `<side>_image_url` (hidden: the current image's URL, "" for none),
 * `<side>_image_file` (a file, only without JavaScript) and `<side>_image_alt`
 * ("" for the default).
 *
 * Without JavaScript it is a plain labelled file input the multipart form
 * carries. With it, a chosen or dropped file is checked, made smaller when
 * over 2 MB, and uploaded at once with real progress; its URL then goes into
 * the hidden input and the file input is emptied, so the form does not send
 * the bytes again.
 */
export function ImageUploadField({
  side,
  label,
  initialUrl,
  initialAlt,
  defaultAlt,
  error,
  onUploadingChange,
  id,
}: ImageUploadFieldProps) {
  const hydrated = useHydrated();
  const baseId = useId();
  const fileId = id ?? `${baseId}file`;
  const legendId = `${baseId}legend`;
  const actionId = `${baseId}action`;
  const hintId = `${baseId}hint`;
  const messageId = `${baseId}message`;
  const progressLabelId = `${baseId}progress`;
  const altId = `${baseId}alt`;
  const altHintId = `${baseId}alt-hint`;

  const [url, setUrl] = useState(initialUrl ?? "");
  const [alt, setAlt] = useState(initialAlt ?? "");
  // New values from the form (another project, the answer to a save) replace the current ones.
  /** This field's own message (a refused file, a failed upload). */
  const [message, setMessage] = useState<string>();
  const [seen, setSeen] = useState({ initialUrl, initialAlt, error });
  if (seen.initialUrl !== initialUrl || seen.initialAlt !== initialAlt || seen.error !== error) {
    setSeen({ initialUrl, initialAlt, error });
    if (seen.initialUrl !== initialUrl) setUrl(initialUrl ?? "");
    if (seen.initialAlt !== initialAlt) setAlt(initialAlt ?? "");
    // The server's newer word replaces this field's older one.
    if (seen.error !== error && error) setMessage(undefined);
  }

  /** The server's message, once a new upload has made it stale. */
  const [staleError, setStaleError] = useState<string>();
  const shownMessage = message ?? (error && error !== staleError ? error : undefined);
  /** 0 to 1 while an upload runs, else null. */
  const [progress, setProgress] = useState<number | null>(null);
  const uploading = progress !== null;
  const [dragging, setDragging] = useState(false);
  /** What the polite live region says: the start and end of an upload, a removal. */
  const [announcement, setAnnouncement] = useState("");

  const inputRef = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<AbortController | null>(null);
  const onUploadingChangeRef = useRef(onUploadingChange);
  useEffect(() => {
    onUploadingChangeRef.current = onUploadingChange;
  });

  // Leaving the page (or the form) mid-upload stops it.
  useEffect(
    () => () => {
      const upload = uploadRef.current;
      if (upload) {
        uploadRef.current = null;
        upload.abort();
        onUploadingChangeRef.current?.(false);
      }
    },
    [],
  );

  function clearFileInput() {
    if (inputRef.current) inputRef.current.value = "";
  }

  async function start(files: FileList | null) {
    if (!files || files.length === 0 || uploadRef.current) return;
    // A copy first: the list empties with the input (and a drop's list after the event).
    const chosen = Array.from(files);
    // The form must never send these bytes: with JavaScript they travel here or not at all.
    clearFileInput();
    const problem = checkSelectedFiles(chosen);
    if (problem) {
      setMessage(problem);
      setAnnouncement("");
      return;
    }
    const controller = new AbortController();
    uploadRef.current = controller;
    setMessage(undefined);
    setProgress(0);
    setAnnouncement(FIELD_TEXT.uploading);
    onUploadingChangeRef.current?.(true);
    try {
      const file = await prepareForUpload(chosen[0]!);
      if (controller.signal.aborted) return;
      const image = await uploadImage(file, {
        signal: controller.signal,
        onProgress: (fraction) => {
          if (!controller.signal.aborted) setProgress(fraction);
        },
      });
      if (controller.signal.aborted) return;
      setProgress(1);
      setUrl(image.url);
      setStaleError(error);
      setAnnouncement(FIELD_TEXT.uploaded(label));
    } catch (failure) {
      if (controller.signal.aborted) return;
      setMessage(uploadFailureText(failure));
      setAnnouncement("");
    } finally {
      if (uploadRef.current === controller) {
        uploadRef.current = null;
        setProgress(null);
        onUploadingChangeRef.current?.(false);
      }
    }
  }

  function remove() {
    setUrl("");
    setMessage(undefined);
    clearFileInput();
    setAnnouncement(FIELD_TEXT.removed(label));
    // The button goes with the preview: the drop zone (its file input) takes focus.
    inputRef.current?.focus();
  }

  function onDragOver(event: DragEvent<HTMLLabelElement>) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = uploading ? "none" : "copy";
    if (!uploading) setDragging(true);
  }

  function onDragLeave(event: DragEvent<HTMLLabelElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
  }

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    if (!uploading) void start(event.dataTransfer.files);
  }

  const percent = Math.round((progress ?? 0) * 100);
  const describedBy = [hintId, shownMessage ? messageId : undefined].filter(Boolean).join(" ");
  const zoneState = uploading
    ? "cursor-wait border-slate-300 bg-slate-50 opacity-70"
    : dragging
      ? "cursor-copy border-blue-600 bg-blue-50"
      : "cursor-pointer border-slate-300 bg-white hover:border-blue-500 hover:bg-slate-50";

  // The same input before and after hydration; only its look and its handler differ.
  const fileInput = {
    ref: inputRef,
    id: fileId,
    side,
    labelledBy: `${legendId} ${actionId}`,
    describedBy,
    invalid: Boolean(shownMessage),
  };

  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-200 p-4">
      <legend id={legendId} className="px-1 text-sm font-semibold text-slate-900">
        {label}
      </legend>

      <input type="hidden" name={`${side}_image_url`} value={url} />

      {url ? (
        <div className="mb-4 flex flex-wrap items-end gap-3">
          <img
            src={url}
            alt={alt.trim() || defaultAlt}
            width={240}
            height={180}
            className="h-[180px] w-[240px] max-w-full rounded-lg bg-slate-100 object-cover ring-1 ring-slate-200"
          />
          {hydrated ? (
            <button
              type="button"
              onClick={remove}
              disabled={uploading}
              aria-label={`Remove ${side} image`}
              className="inline-flex min-h-10 items-center gap-1.5 rounded-lg bg-white px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-red-300 transition-colors hover:bg-red-50 disabled:cursor-wait disabled:opacity-70 motion-reduce:transition-none"
            >
              <Icon name="trash" className="size-4" />
              {FIELD_TEXT.remove}
            </button>
          ) : null}
        </div>
      ) : null}

      {hydrated ? (
        <label
          htmlFor={fileId}
          aria-disabled={uploading || undefined}
          onDragEnter={onDragOver}
          onDragOver={onDragOver}
          onDragLeave={onDragLeave}
          onDrop={onDrop}
          className={`relative flex min-h-32 flex-col items-center justify-center gap-1 rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-blue-600 motion-reduce:transition-none ${zoneState}`}
        >
          <Icon name="arrowUpTray" className="size-8 text-slate-500" />
          {dragging ? (
            <span id={actionId} className="font-medium text-blue-900">
              {FIELD_TEXT.drop}
            </span>
          ) : (
            <span>
              <span id={actionId} className="font-medium text-blue-800 underline underline-offset-2">
                {url ? FIELD_TEXT.replace : FIELD_TEXT.choose}
              </span>{" "}
              <span className="text-slate-700 pointer-coarse:hidden">{FIELD_TEXT.drag}</span>
            </span>
          )}
          <span id={hintId} className="text-sm text-slate-600">
            {FIELD_TEXT.hint}
          </span>
          <FileInput
            {...fileInput}
            uploading={uploading}
            className="sr-only"
            onFiles={(files) => void start(files)}
          />
        </label>
      ) : (
        <div>
          <label id={actionId} htmlFor={fileId} className="block text-sm font-medium text-slate-800">
            {url ? FIELD_TEXT.replace : FIELD_TEXT.choose}
          </label>
          <span id={hintId} className="mt-1 block text-sm text-slate-600">
            {FIELD_TEXT.hint}
          </span>
          <FileInput
            {...fileInput}
            uploading={false}
            className="mt-2 block w-full text-sm text-slate-700 file:mr-3 file:min-h-10 file:cursor-pointer file:rounded-lg file:border-0 file:bg-blue-700 file:px-4 file:py-2 file:font-medium file:text-white hover:file:bg-blue-800"
          />
        </div>
      )}

      {uploading ? (
        <div className="mt-3">
          <div className="flex items-center justify-between gap-3 text-sm text-slate-800">
            <span id={progressLabelId}>{FIELD_TEXT.uploading}</span>
            <span aria-hidden="true" className="font-medium tabular-nums">
              {percent}%
            </span>
          </div>
          <div
            role="progressbar"
            aria-labelledby={progressLabelId}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`${percent}%`}
            className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full rounded-full bg-blue-700 transition-[width] duration-200 motion-reduce:transition-none"
              style={{ width: `${percent}%` }}
            />
          </div>
        </div>
      ) : null}

      {/* Announces the start and end of an upload; the changing percentage is left to the progress bar. */}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>

      {shownMessage ? (
        <p
          id={messageId}
          role="alert"
          className="mt-3 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          <Icon name="exclamation" className="mt-px size-4 shrink-0" />
          <span>{shownMessage}</span>
        </p>
      ) : null}

      <div className="mt-4">
        <label htmlFor={altId} className="block text-sm font-medium text-slate-800">
          {FIELD_TEXT.altLabel(side)}
        </label>
        <input
          id={altId}
          name={`${side}_image_alt`}
          type="text"
          value={alt}
          onChange={(event) => setAlt(event.currentTarget.value)}
          maxLength={ALT_MAX_LENGTH}
          placeholder={defaultAlt}
          autoComplete="off"
          aria-describedby={altHintId}
          className={INPUT}
        />
        <p id={altHintId} className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
          {FIELD_TEXT.altHint(defaultAlt)}
        </p>
      </div>
    </fieldset>
  );
}

function FileInput({
  ref,
  id,
  side,
  labelledBy,
  describedBy,
  invalid,
  uploading,
  className,
  onFiles,
}: {
  ref: Ref<HTMLInputElement>;
  id: string;
  side: "before" | "after";
  labelledBy: string;
  describedBy: string;
  invalid: boolean;
  uploading: boolean;
  className: string;
  onFiles?: (files: FileList | null) => void;
}) {
  return (
    <input
      ref={ref}
      id={id}
      type="file"
      name={`${side}_image_file`}
      accept={IMAGE_ACCEPT}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy || undefined}
      aria-invalid={invalid || undefined}
      // Not `disabled` while uploading: that would drop the keyboard's focus to the page's start.
      // The picker stays shut instead, and assistive technology hears "unavailable".
      aria-disabled={uploading || undefined}
      onClick={(event) => {
        if (uploading) event.preventDefault();
      }}
      onChange={onFiles ? (event) => onFiles(event.currentTarget.files) : undefined}
      className={className}
    />
  );
}
