import { describe, expect, it } from "vitest";
import { RESIZE_ABOVE_BYTES, RESIZE_BOX, RESIZE_QUALITY, UPLOAD_TEXT } from "./image-files";
import { UploadError, fitWithin, needsResize, readUploadAnswer, readUploadError, renameFor, resizeOutputFor, uploadFailureText } from "./upload-client";

describe("fitWithin", () => {
  it("scales a landscape image down to the box's width", () => {
    expect(fitWithin(4000, 2000, RESIZE_BOX)).toEqual({ width: 1920, height: 960 });
  });

  it("scales a 4:3 photo down to the box's height", () => {
    expect(fitWithin(4032, 3024, RESIZE_BOX)).toEqual({ width: 1440, height: 1080 });
  });

  it("scales a portrait image down to the box's height", () => {
    expect(fitWithin(3024, 4032, RESIZE_BOX)).toEqual({ width: 810, height: 1080 });
  });

  it("keeps a 16:9 image exactly at the box", () => {
    expect(fitWithin(3840, 2160, RESIZE_BOX)).toEqual({ width: 1920, height: 1080 });
    expect(fitWithin(1920, 1080, RESIZE_BOX)).toEqual({ width: 1920, height: 1080 });
  });

  it("never scales up an image that already fits", () => {
    expect(fitWithin(800, 600, RESIZE_BOX)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(1920, 10, RESIZE_BOX)).toEqual({ width: 1920, height: 10 });
    expect(fitWithin(1, 1, RESIZE_BOX)).toEqual({ width: 1, height: 1 });
  });

  it("scales down when only one side is too long", () => {
    expect(fitWithin(1000, 2000, RESIZE_BOX)).toEqual({ width: 540, height: 1080 });
    expect(fitWithin(2000, 1000, RESIZE_BOX)).toEqual({ width: 1920, height: 960 });
  });

  it("rounds odd sizes to whole pixels and stays inside the box", () => {
    // 3001 × 1080 / 1921 = 1687.2… → 1687
    expect(fitWithin(3001, 1921, RESIZE_BOX)).toEqual({ width: 1687, height: 1080 });
    // 1921 × 1080 / 1081 = 1919.2… → 1919
    expect(fitWithin(1921, 1081, RESIZE_BOX)).toEqual({ width: 1919, height: 1080 });
    for (const [w, h] of [
      [1921, 1],
      [7777, 3333],
      [12345, 6789],
      [1, 99999],
    ] as const) {
      const size = fitWithin(w, h, RESIZE_BOX);
      expect(Number.isInteger(size.width) && Number.isInteger(size.height)).toBe(true);
      expect(size.width).toBeLessThanOrEqual(RESIZE_BOX.width);
      expect(size.height).toBeLessThanOrEqual(RESIZE_BOX.height);
    }
  });

  it("never gives a side of 0, however thin the image", () => {
    expect(fitWithin(100_000, 1, RESIZE_BOX)).toEqual({ width: 1920, height: 1 });
    expect(fitWithin(1, 100_000, RESIZE_BOX)).toEqual({ width: 1, height: 1080 });
  });

  it("refuses a size that is not an image's", () => {
    expect(() => fitWithin(0, 100, RESIZE_BOX)).toThrow(RangeError);
    expect(() => fitWithin(100, -1, RESIZE_BOX)).toThrow(RangeError);
    expect(() => fitWithin(Number.NaN, 100, RESIZE_BOX)).toThrow(RangeError);
    expect(() => fitWithin(Number.POSITIVE_INFINITY, 100, RESIZE_BOX)).toThrow(RangeError);
  });
});

describe("resizeOutputFor", () => {
  it("keeps JPEG as JPEG, at the resize quality", () => {
    expect(resizeOutputFor({ type: "image/jpeg", name: "a.jpg" })).toEqual({ type: "image/jpeg", quality: RESIZE_QUALITY });
    expect(resizeOutputFor({ type: "image/jpg", name: "a.jpg" })).toEqual({ type: "image/jpeg", quality: 0.8 });
  });

  it("keeps WebP as WebP, at the resize quality", () => {
    expect(resizeOutputFor({ type: "image/webp", name: "a.webp" })).toEqual({ type: "image/webp", quality: 0.8 });
  });

  it("turns PNG and GIF into PNG, without a quality", () => {
    expect(resizeOutputFor({ type: "image/png", name: "a.png" })).toEqual({ type: "image/png" });
    expect(resizeOutputFor({ type: "image/gif", name: "a.gif" })).toEqual({ type: "image/png" });
  });

  it("knows a file without a type by its extension", () => {
    expect(resizeOutputFor({ type: "", name: "IMG_0001.JPEG" })).toEqual({ type: "image/jpeg", quality: 0.8 });
    expect(resizeOutputFor({ type: "", name: "photo.jpg" })?.type).toBe("image/jpeg");
    expect(resizeOutputFor({ type: "", name: "photo.webp" })?.type).toBe("image/webp");
    expect(resizeOutputFor({ type: "", name: "photo.gif" })).toEqual({ type: "image/png" });
    expect(resizeOutputFor({ type: "", name: "photo.png" })).toEqual({ type: "image/png" });
  });

  it("leaves anything else as it is", () => {
    expect(resizeOutputFor({ type: "image/bmp", name: "a.bmp" })).toBeUndefined();
    expect(resizeOutputFor({ type: "image/heic", name: "a.jpg" })).toBeUndefined();
    expect(resizeOutputFor({ type: "", name: "photo" })).toBeUndefined();
    expect(resizeOutputFor({ type: "text/plain", name: "a.txt" })).toBeUndefined();
  });
});

describe("needsResize", () => {
  it("is true only above 2 MB", () => {
    expect(needsResize({ size: RESIZE_ABOVE_BYTES })).toBe(false);
    expect(needsResize({ size: RESIZE_ABOVE_BYTES + 1 })).toBe(true);
    expect(needsResize({ size: 1 })).toBe(false);
  });
});

describe("renameFor", () => {
  it("gives the name the new type's extension", () => {
    expect(renameFor("anim.gif", "image/png")).toBe("anim.png");
    expect(renameFor("photo.jpeg", "image/jpeg")).toBe("photo.jpeg");
    expect(renameFor("photo.JPG", "image/jpeg")).toBe("photo.JPG");
    expect(renameFor("photo.webp", "image/png")).toBe("photo.png");
    expect(renameFor("photo", "image/webp")).toBe("photo.webp");
    expect(renameFor(".gif", "image/png")).toBe("image.png");
  });
});

describe("the server's answers", () => {
  it("reads a stored image", () => {
    expect(readUploadAnswer({ url: "/images/1795325395826-abcdefghij12.jpg", name: "1795325395826-abcdefghij12.jpg", width: 1920, height: 1080 })).toEqual({
      url: "/images/1795325395826-abcdefghij12.jpg",
      name: "1795325395826-abcdefghij12.jpg",
      width: 1920,
      height: 1080,
    });
    expect(readUploadAnswer({ error: "Nope" })).toBeUndefined();
    expect(readUploadAnswer({ url: "" })).toBeUndefined();
    expect(readUploadAnswer(null)).toBeUndefined();
    expect(readUploadAnswer("/images/x.jpg")).toBeUndefined();
  });

  it("reads an error", () => {
    expect(readUploadError({ error: UPLOAD_TEXT.unreadable })).toBe(UPLOAD_TEXT.unreadable);
    expect(readUploadError({ error: "  " })).toBeUndefined();
    expect(readUploadError({ error: 42 })).toBeUndefined();
    expect(readUploadError(undefined)).toBeUndefined();
  });

  it("words a failure with the server's reason, or without one", () => {
    expect(uploadFailureText(new UploadError(UPLOAD_TEXT.busy, 503))).toBe(`Upload failed: ${UPLOAD_TEXT.busy}`);
    expect(uploadFailureText(new UploadError(undefined))).toBe("Upload failed");
    expect(new UploadError(undefined).message).toBe("Upload failed");
    expect(new UploadError("Sign in required.", 401).message).toBe("Sign in required.");
    expect(uploadFailureText(new Error("boom"))).toBe("Upload failed");
  });
});
