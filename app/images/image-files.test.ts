import { describe, expect, it } from "vitest";
import { IMAGE_ACCEPT, MAX_IMAGE_BYTES, UPLOAD_TEXT, checkSelectedFiles, imageNameFromUrl, imageUrl, isImageName, parseImageName } from "./image-files";

const file = (type: string, size = 1000, name = "photo.jpg") => ({ name, type, size });

describe("checkSelectedFiles", () => {
  it("accepts nothing chosen", () => {
    expect(checkSelectedFiles([])).toBeUndefined();
  });

  it("refuses more than one file", () => {
    expect(checkSelectedFiles([file("image/jpeg"), file("image/png", 1000, "b.png")])).toBe("Too many files");
  });

  it("refuses a file that is not an image, in the drop zone's words", () => {
    expect(checkSelectedFiles([file("text/plain", 1000, "notes.txt")])).toBe("File type must be image/*, .jpeg, .jpg, .png, .gif, .webp");
    expect(checkSelectedFiles([file("application/pdf", 1000, "photo.jpg")])).toBe(UPLOAD_TEXT.fileType("image/*, .jpeg, .jpg, .png, .gif, .webp"));
    expect(checkSelectedFiles([file("", 1000, "notes.txt")])).toMatch(/^File type must be /);
    expect(checkSelectedFiles([file("", 1000, "photo")])).toMatch(/^File type must be /);
  });

  it("refuses an image of 10 MB or more in the specification's words, however it is chosen", () => {
    // SPEC §5's own words for an image of 10 MB or more, not the generic "File is larger than N bytes".
    expect(checkSelectedFiles([file("image/jpeg", 11 * 1024 * 1024)])).toBe("File size must be less than 10MB");
    expect(checkSelectedFiles([file("image/jpeg", 10_485_761)])).toBe("File size must be less than 10MB");
    expect(checkSelectedFiles([file("image/bmp", 11 * 1024 * 1024, "scan.bmp")])).toBe("File size must be less than 10MB");
  });

  it("refuses an empty file", () => {
    expect(checkSelectedFiles([file("image/jpeg", 0)])).toBe("File is smaller than 1 bytes");
  });

  it("refuses an image type the upload does not take, in SPEC §5's words", () => {
    expect(checkSelectedFiles([file("image/bmp", 1000, "a.bmp")])).toBe("Please upload a valid image file (JPEG, PNG, GIF, or WebP).");
    expect(checkSelectedFiles([file("image/heic", 1000, "a.heic")])).toBe(UPLOAD_TEXT.invalidType);
    expect(checkSelectedFiles([file("image/svg+xml", 1000, "a.svg")])).toBe(UPLOAD_TEXT.invalidType);
  });

  it("refuses exactly 10 MB: the file must be under 10MB", () => {
    expect(checkSelectedFiles([file("image/jpeg", MAX_IMAGE_BYTES)])).toBe("File size must be less than 10MB");
    expect(checkSelectedFiles([file("image/jpeg", 10_485_760)])).toBe(UPLOAD_TEXT.tooLarge);
  });

  it("accepts JPEG, PNG, GIF and WebP", () => {
    expect(checkSelectedFiles([file("image/jpeg", MAX_IMAGE_BYTES - 1)])).toBeUndefined();
    expect(checkSelectedFiles([file("image/jpg")])).toBeUndefined();
    expect(checkSelectedFiles([file("image/png", 1, "a.png")])).toBeUndefined();
    expect(checkSelectedFiles([file("image/gif", 5000, "a.gif")])).toBeUndefined();
    expect(checkSelectedFiles([file("image/webp", 5000, "a.webp")])).toBeUndefined();
    expect(checkSelectedFiles([file("IMAGE/JPEG")])).toBeUndefined();
  });

  it("accepts a file with no type by its extension", () => {
    expect(checkSelectedFiles([file("", 1000, "photo.jpg")])).toBeUndefined();
    expect(checkSelectedFiles([file("", 1000, "PHOTO.JPEG")])).toBeUndefined();
    expect(checkSelectedFiles([file("", 1000, "photo.webp")])).toBeUndefined();
  });

  it("checks the size of a file with no type too", () => {
    expect(checkSelectedFiles([file("", MAX_IMAGE_BYTES, "photo.jpg")])).toBe(UPLOAD_TEXT.tooLarge);
    expect(checkSelectedFiles([file("", 0, "photo.jpg")])).toBe(UPLOAD_TEXT.smallerThan(1));
  });
});

describe("IMAGE_ACCEPT", () => {
  it("lists the MIME types and extensions the upload takes", () => {
    expect(IMAGE_ACCEPT).toBe("image/jpeg,image/jpg,image/png,image/gif,image/webp,.jpeg,.jpg,.png,.gif,.webp");
  });
});

describe("isImageName", () => {
  it("accepts a stored name and a resized copy's", () => {
    expect(isImageName("1795325395826-abcdefghij12.jpg")).toBe(true);
    expect(isImageName("1795325395826-abcdefghij12.png")).toBe(true);
    expect(isImageName("1795325395826-abcdefghij12.webp")).toBe(true);
    expect(isImageName("1795325395826-abcdefghij12-960w.avif")).toBe(true);
    expect(isImageName("1795325395826-abcdefghij12-480w.webp")).toBe(true);
  });

  it("refuses paths and encoded paths", () => {
    for (const name of [
      "../x.jpg",
      "../1795325395826-abcdefghij12.jpg",
      "%2e%2e",
      "%2e%2e%2f1795325395826-abcdefghij12.jpg",
      "a/b.jpg",
      "images/1795325395826-abcdefghij12.jpg",
      "/1795325395826-abcdefghij12.jpg",
      "/etc/passwd",
      "C:\\images\\1795325395826-abcdefghij12.jpg",
      "1795325395826-abcdefghij12.jpg/",
      "1795325395826-abcdefghij12.jpg\n",
    ]) {
      expect(isImageName(name), name).toBe(false);
    }
  });

  it("refuses other extensions and letter cases", () => {
    expect(isImageName("1795325395826-abcdefghij12.JPG")).toBe(false);
    expect(isImageName("1795325395826-abcdefghij12.jpeg")).toBe(false);
    expect(isImageName("1795325395826-abcdefghij12.gif")).toBe(false);
    expect(isImageName("1795325395826-ABCDEFGHIJ12.jpg")).toBe(false);
    expect(isImageName("1795325395826-abcdefghij12.jpg.exe")).toBe(false);
  });

  it("refuses names with parts missing or of the wrong length", () => {
    for (const name of [
      "",
      ".jpg",
      "1795325395826.jpg",
      "-abcdefghij12.jpg",
      "1795325395826-abcdefghij12",
      "1795325395826-abcdefghij12.",
      "179532539582-abcdefghij12.jpg",
      "1795325395826-abcdefghij1.jpg",
      "1795325395826-abcdefghij123.jpg",
      "1795325395826abcdefghij12.jpg",
      "1795325395826-abcdefghij12-w.webp",
      "1795325395826-abcdefghij12-12345w.webp",
    ]) {
      expect(isImageName(name), name).toBe(false);
    }
  });

  it("refuses the storage's temporary names", () => {
    expect(isImageName(".upload-0123456789abcdef")).toBe(false);
    expect(isImageName(".upload-1795325395826-abcdefghij12.jpg")).toBe(false);
  });
});

describe("parseImageName", () => {
  it("gives the parts of a name", () => {
    expect(parseImageName("1795325395826-abcdefghij12.jpg")).toEqual({
      timestamp: 1795325395826,
      stem: "1795325395826-abcdefghij12",
      width: undefined,
      extension: "jpg",
    });
    expect(parseImageName("1795325395826-abcdefghij12-960w.avif")).toMatchObject({ width: 960, extension: "avif" });
    expect(parseImageName("../x.jpg")).toBeUndefined();
  });
});

describe("imageNameFromUrl", () => {
  it("gives the stored file of one of our URLs", () => {
    expect(imageNameFromUrl("/images/1795325395826-abcdefghij12.jpg")).toBe("1795325395826-abcdefghij12.jpg");
    expect(imageNameFromUrl(imageUrl("1795325395826-abcdefghij12.webp"))).toBe("1795325395826-abcdefghij12.webp");
  });

  it("refuses a resized copy: only originals are chosen", () => {
    expect(imageNameFromUrl("/images/1795325395826-abcdefghij12-960w.avif")).toBeUndefined();
  });

  it("refuses other places and paths out of /images/", () => {
    for (const url of [
      "",
      "1795325395826-abcdefghij12.jpg",
      "/uploads/1795325395826-abcdefghij12.jpg",
      "/Images/1795325395826-abcdefghij12.jpg",
      "images/1795325395826-abcdefghij12.jpg",
      "https://example.com/images/1795325395826-abcdefghij12.jpg",
      "//example.com/images/1795325395826-abcdefghij12.jpg",
      "/images/../1795325395826-abcdefghij12.jpg",
      "/images/../etc/passwd",
      "/images/%2e%2e/1795325395826-abcdefghij12.jpg",
      "/images/a/1795325395826-abcdefghij12.jpg",
      "/images/1795325395826-abcdefghij12.jpg?x=1",
      "/images/",
      "/images/.upload-0123456789abcdef",
    ]) {
      expect(imageNameFromUrl(url), url).toBeUndefined();
    }
  });
});
