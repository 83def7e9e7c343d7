import { describe, expect, it } from "vitest";
import { contentSpamReason, countLinks, honeypotFilled } from "./spam.server";
import { SPAM_REASON_LABELS, spamReasonLabel } from "./spam";

const person = { name: "Grace Hopper", message: "Three houses in Leeds need a managing agent." };

describe("the honeypot", () => {
  it("is empty when absent or blank", () => {
    for (const value of [undefined, null, ""]) expect(honeypotFilled(value)).toBe(false);
  });

  it("is filled by anything else, whatever its type", () => {
    for (const value of ["https://spam.example", " ", "0", 0, false, {}, []]) expect(honeypotFilled(value)).toBe(true);
  });
});

describe("counting links", () => {
  it.each([
    ["no link", "Call me on 07700 900123.", 0],
    ["http and https", "See http://a.example and https://b.example", 2],
    ["www. without a scheme", "My listing: www.rightmove.co.uk/123", 1],
    ["https://www. counts once", "https://www.example.com", 1],
    ["any case", "HTTPS://A.EXAMPLE Www.B.Example", 2],
    ["a link after punctuation", "(http://a.example), [https://b.example]", 2],
  ])("%s", (_label, text, count) => {
    expect(countLinks(text)).toBe(count);
  });

  it("does not count words that merely contain the letters", () => {
    expect(countLinks("I own a house at awww.example and read thttp://x")).toBe(0);
  });
});

describe("the content rules", () => {
  it("let a normal message through, with one or two links", () => {
    expect(contentSpamReason(person)).toBeUndefined();
    expect(contentSpamReason({ ...person, message: "The flat: https://www.rightmove.co.uk/properties/1" })).toBeUndefined();
    expect(
      contentSpamReason({ ...person, message: "Photos at https://photos.example/album and the listing at www.zoopla.co.uk/2" }),
    ).toBeUndefined();
  });

  it("catch 3 or more links in the message as links", () => {
    const message = "Cheap SEO http://a.example https://b.example www.c.example";
    expect(contentSpamReason({ ...person, message })).toBe("links");
    expect(contentSpamReason({ ...person, message: `${message} http://d.example` })).toBe("links");
  });

  it.each([
    ["BBCode", "[url=http://spam.example]cheap pills[/url]"],
    ["BBCode in capitals", "[URL]spam.example[/URL]"],
    ["an HTML anchor", 'Visit <a href="http://spam.example">us</a>'],
    ["an HTML anchor in capitals, over a line break", '<A\nHREF="x">x</A>'],
  ])("catch %s in the message as link-markup", (_label, message) => {
    expect(contentSpamReason({ ...person, message })).toBe("link-markup");
  });

  it("do not take other angle brackets or square brackets for markup", () => {
    expect(contentSpamReason({ ...person, message: "Budget <about £5k> [urgent] <abbr>" })).toBeUndefined();
  });

  it.each([
    ["a scheme", "Grace http://spam.example"],
    ["www.", "www.cheap-loans.example"],
  ])("catch a link in the name (%s) as link-in-name", (_label, name) => {
    expect(contentSpamReason({ ...person, name })).toBe("link-in-name");
  });

  it("name the first rule broken: name, then markup, then links", () => {
    const everything = { name: "www.spam.example", message: "[url]a[/url] http://1.example http://2.example http://3.example" };
    expect(contentSpamReason(everything)).toBe("link-in-name");
    expect(contentSpamReason({ ...everything, name: "Spammer" })).toBe("link-markup");
  });

  it("only give reasons the admin has a label for", () => {
    for (const reason of ["links", "link-markup", "link-in-name", "honeypot", "no-token", "bad-token", "too-fast"]) {
      expect(Object.keys(SPAM_REASON_LABELS)).toContain(reason);
      expect(spamReasonLabel(reason)).not.toBe(reason);
    }
  });
});
