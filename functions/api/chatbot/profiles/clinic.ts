import type { ProfileTemplate } from './template.ts';

/** A family clinic in Kochi: doctors with weekly slots, services with fees, booking rules. */
export const clinic: ProfileTemplate = {
  brain: {
    business: {
      name: 'Sree Narayana Family Clinic',
      tagline: 'Family medicine, paediatrics and dental care under one roof',
      profile: 'clinic',
      industry: 'multi-speciality outpatient clinic',
      description:
        'A neighbourhood outpatient clinic in Edappally with general medicine, paediatrics, dentistry and a small laboratory. Walk-ins are seen after booked patients; emergencies go to the hospital listed under FAQ.',
      currency: 'INR',
      languages: ['English', 'Malayalam', 'Hindi'],
    },
    location: {
      address: '2nd floor, Pallikkara Towers, NH 66 Service Road, Edappally',
      city: 'Kochi',
      state: 'Kerala',
      country: 'India',
      postalCode: '682024',
      mapUrl: 'https://maps.example.com/?q=Pallikkara+Towers+Edappally',
      landmarks: [
        'Opposite Edappally metro station, exit B',
        'Next to Lulu Mall signal',
        'Lift and ramp access',
      ],
    },
    contact: {
      phones: ['+91 484 2800 100', '+91 98470 12345'],
      whatsapp: '+91 98470 12345',
      email: 'care@snfamilyclinic.example',
      website: 'https://snfamilyclinic.example',
      hours: {
        monday: { open: '08:30', close: '20:00' },
        tuesday: { open: '08:30', close: '20:00' },
        wednesday: { open: '08:30', close: '20:00' },
        thursday: { open: '08:30', close: '20:00' },
        friday: { open: '08:30', close: '20:00' },
        saturday: { open: '09:00', close: '14:00' },
        sunday: { closed: true },
      },
    },
    doctors: [
      {
        name: 'Dr. Anitha Menon',
        specialty: 'General medicine',
        qualifications: ['MBBS', 'MD (General Medicine)'],
        languages: ['English', 'Malayalam'],
        availability: {
          monday: ['09:00-12:00', '17:00-19:00'],
          tuesday: ['09:00-12:00'],
          wednesday: ['09:00-12:00', '17:00-19:00'],
          thursday: ['09:00-12:00'],
          friday: ['09:00-12:00', '17:00-19:00'],
          saturday: ['09:00-12:00'],
        },
        fee: 400,
      },
      {
        name: 'Dr. Rahul Nair',
        specialty: 'Paediatrics',
        qualifications: 'MBBS, DCH, DNB (Paediatrics)',
        languages: ['English', 'Malayalam', 'Hindi'],
        availability: {
          monday: ['16:00-19:30'],
          wednesday: ['16:00-19:30'],
          friday: ['16:00-19:30'],
          saturday: ['10:00-13:00'],
        },
        fee: 500,
      },
      {
        name: 'Dr. Fathima Rasheed',
        specialty: 'Dentistry',
        qualifications: ['BDS', 'MDS (Conservative Dentistry)'],
        languages: ['English', 'Malayalam', 'Tamil'],
        availability: {
          tuesday: ['10:00-13:00', '15:00-18:00'],
          thursday: ['10:00-13:00', '15:00-18:00'],
          saturday: ['09:30-13:30'],
        },
        fee: 300,
      },
    ],
    services: [
      {
        name: 'General consultation',
        description: 'Fever, infections, blood pressure, diabetes follow-up.',
        price: 400,
        duration: 15,
      },
      {
        name: 'Child consultation and vaccination',
        description: 'National schedule vaccines; bring the vaccination card.',
        price: 500,
        duration: 20,
      },
      {
        name: 'Dental check-up and cleaning',
        description: 'Examination, scaling and polishing.',
        price: 900,
        duration: 40,
      },
      {
        name: 'Root canal treatment',
        description: 'Per tooth, in two or three sittings; crown extra.',
        price: 'from 3500',
        duration: '2-3 visits',
      },
      {
        name: 'Blood tests',
        description:
          'Sugar, lipid profile, thyroid, CBC. Samples 07:30-10:30; fasting tests need 10 hours fasting.',
        price: 'from 150',
        duration: 10,
      },
      {
        name: 'Home sample collection',
        description: 'Within 5 km of the clinic, booked a day ahead.',
        price: 150,
      },
    ],
    booking: {
      instructions:
        'Send the patient name, age, the doctor or department and a preferred day. We confirm the token number on WhatsApp. Please arrive 10 minutes early with previous prescriptions.',
      advanceDays: 14,
      payment: ['Cash', 'UPI', 'Debit/credit card'],
      phone: '+91 484 2800 100',
    },
    faq: [
      {
        q: 'Do you handle emergencies?',
        a: 'No. For emergencies go to Amrita Hospital casualty (4 km) or call 108.',
      },
      { q: 'Is parking available?', a: 'Yes, free basement parking in Pallikkara Towers for patients.' },
      {
        q: 'Do you accept insurance?',
        a: 'We give itemised bills for reimbursement; cashless insurance is not available.',
      },
      {
        q: 'When are lab reports ready?',
        a: 'Most blood reports the same day by 17:00, sent on WhatsApp as PDF.',
      },
    ],
    remote: { refreshMinutes: 60 },
  },
  prompt: `You are Asha, the front-desk assistant of Sree Narayana Family Clinic, Edappally, Kochi.
Tone: warm, calm and brief, like a helpful receptionist. Reply in the language the patient writes in (Malayalam, English or Manglish); keep Malayalam replies in Malayalam script.
Rules:
- Answer only from the clinic information you are given: doctors, their days and slots, fees, services, hours, address and booking steps. If something is not there, say you will ask the staff and that someone will reply during working hours.
- Never diagnose, never suggest medicines or doses. For chest pain, breathing trouble, heavy bleeding, unconsciousness or a child with fits, tell them to go to the nearest casualty or call 108 at once.
- To book, collect patient name, age, doctor or department and preferred day, then say the desk will confirm the token on WhatsApp.
- Keep replies under 80 words. No more than one emoji.`,
  intents: {
    meta: { industry: 'clinic', version: '2026-11', owner: 'front desk' },
    runtime_policy: {
      confidence_policy: {
        rule_match_no_ai: 0.9,
        semantic_match_no_ai: 0.84,
        skip_llm_simple_template: true,
      },
    },
    intents: [
      {
        id: 'clinic_hours',
        enabled: true,
        category: 'info',
        action: 'answer_hours',
        training_phrases: {
          en: [
            'what are your timings',
            'when is the clinic open',
            'opening hours',
            'clinic timings',
            'what time do you open',
            'what time do you close today',
            'are you open on sunday',
            'are you open today',
            'working hours of the clinic',
            'till what time is the clinic open',
          ],
          ml: [
            'ക്ലിനിക് എപ്പോൾ തുറക്കും',
            'ക്ലിനിക് എത്ര മണി വരെ ഉണ്ട്',
            'ഞായറാഴ്ച തുറക്കുമോ',
            'ക്ലിനിക്കിന്റെ സമയം എന്താണ്',
            'ഇന്ന് തുറന്നിട്ടുണ്ടോ',
            'രാവിലെ എത്ര മണിക്ക് തുറക്കും',
            'പ്രവർത്തന സമയം എന്താണ്',
          ],
          'ml-Latn': [
            'clinic eppol thurakkum',
            'clinic timing enthanu',
            'ethra mani vare undu',
            'sunday open aano',
            'innu open aano',
            'raavile ethra manikku thurakkum',
            'clinic samayam enthanu',
            'eppol adakkum',
          ],
        },
      },
      {
        id: 'clinic_location',
        enabled: true,
        category: 'info',
        action: 'answer_location',
        training_phrases: {
          en: [
            'where is the clinic',
            'address please',
            'how do i reach you',
            'location of the clinic',
            'send me the location',
            'where are you located',
            'clinic address',
            'how to get to the clinic',
          ],
          ml: [
            'ക്ലിനിക് എവിടെയാണ്',
            'അഡ്രസ് അയക്കാമോ',
            'എങ്ങനെ വരണം',
            'സ്ഥലം എവിടെ',
            'ലൊക്കേഷൻ അയക്കൂ',
            'ക്ലിനിക്കിന്റെ വിലാസം',
          ],
          'ml-Latn': [
            'clinic evideya',
            'address ayakkamo',
            'location onnu ayakku',
            'evide aanu clinic',
            'engane varanam',
            'sthalam evide aanu',
          ],
        },
      },
      {
        id: 'doctor_availability',
        enabled: true,
        category: 'doctors',
        action: 'answer_doctor_slots',
        training_phrases: {
          en: [
            'when is the doctor available',
            'is the child specialist available today',
            'dentist timings',
            'doctor slots this week',
            'when does the paediatrician come',
            'doctor timings',
            'which days is the dentist available',
            'when can i see the doctor',
          ],
          ml: [
            'ഡോക്ടർ എപ്പോൾ ഉണ്ടാകും',
            'കുട്ടികളുടെ ഡോക്ടർ ഇന്നുണ്ടോ',
            'ഡെന്റിസ്റ്റ് എപ്പോൾ വരും',
            'ഡോക്ടറുടെ സമയം',
            'ഡോക്ടർ ഏതൊക്കെ ദിവസം ഉണ്ട്',
          ],
          'ml-Latn': [
            'doctor eppol undakum',
            'doctor innundo',
            'kuttikalude doctor eppo varum',
            'dentist eppozha varunne',
            'doctor timing enthanu',
            'doctor ethokke divasam undu',
          ],
        },
      },
      {
        id: 'consultation_fee',
        enabled: true,
        category: 'billing',
        action: 'answer_fees',
        training_phrases: {
          en: [
            'what is the consultation fee',
            'how much does it cost to see the doctor',
            'doctor fees',
            'charges for consultation',
            'consulting fee',
            'how much is the fee',
            'fees for the dentist',
            'what do you charge for a consultation',
          ],
          ml: ['കൺസൾട്ടേഷൻ ഫീസ് എത്രയാണ്', 'ഡോക്ടറെ കാണാൻ എത്ര രൂപ', 'ഫീസ് എത്ര', 'ഡോക്ടറുടെ ഫീസ് എത്ര'],
          'ml-Latn': [
            'fees ethra',
            'consultation fees ethra aanu',
            'doctorine kaanan ethra roopa',
            'doctor fees ethrayanu',
            'fee ethra venam',
          ],
        },
      },
      {
        id: 'book_appointment',
        enabled: true,
        category: 'booking',
        action: 'start_booking',
        training_phrases: {
          en: [
            'i want to book an appointment',
            'book a token for tomorrow',
            'can i get an appointment',
            'schedule a visit',
            'how do i book',
            'i need an appointment with the doctor',
            'book a slot',
            'appointment please',
          ],
          ml: [
            'അപ്പോയിന്റ്മെന്റ് ബുക്ക് ചെയ്യണം',
            'നാളത്തേക്ക് ടോക്കൺ വേണം',
            'ഡോക്ടറെ കാണാൻ ബുക്ക് ചെയ്യാമോ',
            'ടോക്കൺ ബുക്ക് ചെയ്യണം',
            'എങ്ങനെ ബുക്ക് ചെയ്യാം',
          ],
          'ml-Latn': [
            'appointment book cheyyanam',
            'token venam',
            'naale token kittumo',
            'booking engane aanu',
            'doctorine kaanan book cheyyamo',
            'appointment venam',
          ],
        },
        responses: {
          ml: 'തീർച്ചയായും. രോഗിയുടെ പേര്, വയസ്സ്, ഡോക്ടർ അല്ലെങ്കിൽ വിഭാഗം, ഇഷ്ടമുള്ള ദിവസം എന്നിവ അയക്കൂ; ടോക്കൺ വാട്സ്ആപ്പിൽ സ്ഥിരീകരിക്കും.',
        },
      },
      {
        id: 'lab_reports',
        enabled: true,
        category: 'lab',
        action: 'answer_lab',
        training_phrases: {
          en: [
            'when will my blood test report be ready',
            'lab report status',
            'do i need fasting for sugar test',
            'blood test timings',
            'when can i collect my report',
            'is fasting needed for the test',
          ],
          ml: [
            'ബ്ലഡ് ടെസ്റ്റ് റിസൾട്ട് എപ്പോൾ കിട്ടും',
            'ലാബ് റിപ്പോർട്ട് റെഡിയായോ',
            'ഷുഗർ ടെസ്റ്റിന് ഭക്ഷണം കഴിക്കാതെ വരണോ',
            'റിപ്പോർട്ട് എപ്പോൾ കിട്ടും',
          ],
          'ml-Latn': [
            'report eppo kittum',
            'blood test result eppol kittum',
            'sugar testinu fasting veno',
            'lab report ready aayo',
          ],
        },
        responses: {
          en: 'Samples are taken 07:30-10:30. Most reports are ready the same day by 17:00 and sent on WhatsApp. Fasting tests need 10 hours without food.',
          ml: 'രാവിലെ 7:30 മുതൽ 10:30 വരെ സാമ്പിൾ എടുക്കും. മിക്ക റിപ്പോർട്ടുകളും അന്ന് വൈകുന്നേരം 5 മണിക്ക് മുമ്പ് വാട്സ്ആപ്പിൽ അയക്കും. ഫാസ്റ്റിംഗ് ടെസ്റ്റിന് 10 മണിക്കൂർ ഭക്ഷണം കഴിക്കരുത്.',
        },
      },
      {
        id: 'emergency',
        enabled: true,
        category: 'safety',
        action: 'answer_emergency',
        training_phrases: {
          en: ['it is an emergency', 'severe chest pain', 'my child is having fits', 'accident help'],
          ml: ['അത്യാവശ്യമാണ്', 'നെഞ്ചുവേദന കൂടുതലാണ്', 'കുട്ടിക്ക് ഫിറ്റ്സ് വരുന്നു'],
          'ml-Latn': ['emergency aanu', 'nenju vedana koodunnu', 'kuttikku fits varunnu'],
        },
        responses: {
          en: 'This clinic does not handle emergencies. Please go to the nearest casualty (Amrita Hospital, 4 km) or call 108 now.',
          ml: 'ഇവിടെ എമർജൻസി ചികിത്സ ഇല്ല. ഉടനെ അടുത്തുള്ള കാഷ്വാലിറ്റിയിൽ (അമൃത ഹോസ്പിറ്റൽ, 4 കി.മീ.) പോകുക അല്ലെങ്കിൽ 108-ൽ വിളിക്കുക.',
        },
      },
    ],
  },
};
