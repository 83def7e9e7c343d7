import { describe, expect, it } from "vitest";
import { contentSignals, countLinks, honeypotFilled, spamVerdict } from "./spam.server";
import { SPAM_SIGNAL_LABELS, spamSignalsLabel } from "./spam";

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
    expect(contentSignals(person)).toEqual([]);
    expect(contentSignals({ ...person, message: "The flat: https://www.rightmove.co.uk/properties/1" })).toEqual([]);
    expect(contentSignals({ ...person, message: "Photos at https://photos.example/album and the listing at www.zoopla.co.uk/2" })).toEqual([]);
  });

  it("notice 3 or more links in the message as links", () => {
    const message = "Cheap SEO http://a.example https://b.example www.c.example";
    expect(contentSignals({ ...person, message })).toEqual(["links"]);
    expect(contentSignals({ ...person, message: `${message} http://d.example` })).toEqual(["links"]);
  });

  it.each([
    ["BBCode", "[url=http://spam.example]cheap pills[/url]"],
    ["BBCode in capitals", "[URL]spam.example[/URL]"],
    ["an HTML anchor", 'Visit <a href="http://spam.example">us</a>'],
    ["an HTML anchor in capitals, over a line break", '<A\nHREF="x">x</A>'],
  ])("notice %s in the message as link-markup", (_label, message) => {
    expect(contentSignals({ ...person, message })).toEqual(["link-markup"]);
  });

  it("do not take other angle brackets or square brackets for markup", () => {
    expect(contentSignals({ ...person, message: "Budget <about £5k> [urgent] <abbr>" })).toEqual([]);
  });

  it.each([
    ["a scheme", "Grace http://spam.example"],
    ["www.", "www.cheap-loans.example"],
  ])("notice a link in the name (%s) as link-in-name", (_label, name) => {
    expect(contentSignals({ ...person, name })).toEqual(["link-in-name"]);
  });

  it("name every rule broken", () => {
    const everything = { name: "www.spam.example", message: "[url]a[/url] http://1.example http://2.example http://3.example" };
    expect(contentSignals(everything)).toEqual(["link-in-name", "link-markup", "links"]);
  });
});

describe("the verdict, from all the signals together", () => {
  it("files strong evidence under Spam: the honeypot, a forged token, link markup", () => {
    for (const strong of ["honeypot", "bad-token", "link-markup"] as const) {
      expect(spamVerdict([strong])).toEqual({ kind: "spam", signals: [strong] });
    }
  });

  it("only marks a single weak signal as possible spam: too fast, no token, links, a link in the name", () => {
    for (const weak of ["too-fast", "no-token", "links", "link-in-name"] as const) {
      expect(spamVerdict([weak])).toEqual({ kind: "possible-spam", signals: [weak] });
    }
    expect(spamVerdict(["too-fast", "links"])).toEqual({ kind: "possible-spam", signals: ["too-fast", "links"] });
  });

  it("files the combinations that only bots make: a link in the name with anything else; links, too fast, again and again", () => {
    expect(spamVerdict(["link-in-name", "too-fast"]).kind).toBe("spam");
    expect(spamVerdict(["link-in-name", "links"]).kind).toBe("spam");
    expect(spamVerdict(["links", "too-fast", "repeat-sender"]).kind).toBe("spam");
  });

  it("ignores a repeat sender on its own, and finds nothing in a clean enquiry", () => {
    expect(spamVerdict(["repeat-sender"])).toEqual({ kind: "clean" });
    expect(spamVerdict([])).toEqual({ kind: "clean" });
  });

  it("has a label for every signal, and joins several", () => {
    for (const signal of Object.keys(SPAM_SIGNAL_LABELS)) expect(spamSignalsLabel(signal)).not.toBe(signal);
    expect(spamSignalsLabel("too-fast+links")).toBe("Sent within 3 seconds of opening the page; Three or more links in the message");
    expect(spamSignalsLabel("something-old")).toBe("something-old");
  });
});
