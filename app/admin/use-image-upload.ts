import { useEffect, useRef, useState, type RefObject } from "react";
import { checkSelectedFiles } from "~/images/image-files";
import { prepareForUpload, uploadFailureText, uploadImage } from "~/images/upload-client";
import { FIELD_TEXT } from "./image-upload-text";

export type ImageUploadOptions = {
  /** The group's visible name, for the announcements ("Before image uploaded."). */
  label: string;
  initialUrl?: string;
  initialAlt?: string;
  /** The server's message about this image. */
  error?: string;
  onUploadingChange?: (uploading: boolean) => void;
};

export type ImageUpload = {
  /** The current image's URL, "" for none. */
  url: string;
  alt: string;
  setAlt: (alt: string) => void;
  /** The message to show: this field's own, else the server's while not stale. */
  shownMessage: string | undefined;
  /** 0 to 1 while an upload runs, else null. */
  progress: number | null;
  uploading: boolean;
  /** What the polite live region says: the start and end of an upload, a removal. */
  announcement: string;
  /** The file input, emptied once its files are taken and focused after a removal. */
  inputRef: RefObject<HTMLInputElement | null>;
  /** Checks chosen or dropped files and uploads the first. */
  start: (files: FileList | null) => Promise<void>;
  /** Drops the current image. */
  remove: () => void;
};

/**
 * The state of one image field: its image, its alt text, its message, and the
 * upload that runs (checked, made smaller when over 2 MB, sent with real
 * progress, stopped when the field leaves the page).
 */
export function useImageUpload({ label, initialUrl, initialAlt, error, onUploadingChange }: ImageUploadOptions): ImageUpload {
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

  return { url, alt, setAlt, shownMessage, progress, uploading, announcement, inputRef, start, remove };
}
