/** A renovation project as the site and the API show it (SPEC §3 field names). */
export type RenovationProject = {
  id: string;
  title: string;
  category: string;
  description: string;
  duration: string;
  budget: string;
  before_image_url: string;
  after_image_url: string;
  is_active: boolean;
  display_order: number;
  created_at: string;
  updated_at: string;
};
